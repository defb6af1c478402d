// Package workers runs short calls on goroutines that outlive them.
//
// A fresh goroutine per call starts on a small stack that the call then
// grows, copying it, several times (protobuf encoding, JSON decoding, a
// tool's own work): in CPU profiles of a plugin under load
// runtime.newstack/copystack were about a sixth of its CPU, and a
// measurable share of a sub-millisecond tool call in the host. Both hot
// paths (the host's stdio tool calls, the plugin protocol's call
// multiplexer) use one Pool each.
package workers

import "time"

// Idle is how long an idle worker waits for more work before it exits, so
// an idle process holds none.
const Idle = 10 * time.Second

// Pool hands each call to an idle worker, or starts one.
type Pool struct {
	work chan func()
	done chan struct{}
}

// New returns an empty pool.
func New() *Pool {
	return &Pool{work: make(chan func()), done: make(chan struct{})}
}

// Run runs fn on an idle worker, or on a new one when none is idle.
func (p *Pool) Run(fn func()) {
	select {
	case p.work <- fn: // an idle worker takes it
	default:
		go p.worker(fn)
	}
}

// Stop ends the idle workers; busy ones end after their call. Run must not
// be called after Stop.
func (p *Pool) Stop() { close(p.done) }

func (p *Pool) worker(fn func()) {
	idle := time.NewTimer(Idle)
	defer idle.Stop()
	for {
		fn()
		idle.Reset(Idle)
		select {
		case fn = <-p.work:
		case <-idle.C:
			return
		case <-p.done:
			return
		}
	}
}
