package workers

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// Every call runs, and Stop ends the idle workers (which otherwise wait
// for work for Idle, 10 s).
func TestPoolRunsEveryCallAndStops(t *testing.T) {
	before := runtime.NumGoroutine()
	p := New()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ran := 0
	for range 1000 {
		wg.Add(1)
		p.Run(func() {
			defer wg.Done()
			mu.Lock()
			ran++
			mu.Unlock()
		})
	}
	wg.Wait()
	if ran != 1000 {
		t.Fatalf("ran %d calls, want 1000", ran)
	}
	p.Stop()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left after Stop, had %d before", n, before)
	}
}
