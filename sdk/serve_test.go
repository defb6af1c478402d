package sdk

import (
	"os"
	"sync/atomic"
	"testing"
	"time"
)

func TestWatchParentExitsWhenTheParentIsGone(t *testing.T) {
	var checks atomic.Int32
	exited := make(chan struct{})
	watchParent(time.Millisecond, func() bool { return checks.Add(1) >= 3 }, func() { close(exited) })
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not fire")
	}
	if n := checks.Load(); n != 3 {
		t.Errorf("checked %d times, want 3", n)
	}
	if parentGone(os.Getppid()) {
		t.Error("parentGone reports our living parent as gone")
	}
}
