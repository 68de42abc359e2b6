package measure

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// loopState is the timed loop's side of the engine while it runs as one job
// on the worker (runLoop).
//
// The loop holds mu while it runs Go code and lets go of it for each call into
// the device, so that the watcher can give up on a call that hangs without
// racing the loop for the Result: once the watcher set gaveUp under mu, the
// loop touches nothing when its call comes back.
type loopState struct {
	mu sync.Mutex
	// on is true while the loop runs: set and cleared on the worker, read by
	// deviceCall there and, before and after the loop, by the engine's
	// goroutine (the job's hand-over and its end order them).
	on bool
	// gaveUp is true once the watcher abandoned the loop (guarded by mu).
	gaveUp bool
	// base is when the loop started; callStart is when the device call
	// running now started, as time since base plus 1 ns, or 0 between calls.
	base      time.Time
	callStart atomic.Int64
}

// errGaveUp ends an abandoned loop once its device call comes back; nobody
// reads it (the watcher returned its own error).
var errGaveUp = errors.New("measure: the loop was abandoned")

// runLoop runs job, the warm-up and the samples, as one job on the engine's
// worker, and watches each call into the device it makes (deviceCall) as call
// watches one: a call still running after Settings.KernelTimeout, or
// Settings.Grace after ctx's cancellation, is abandoned and runLoop returns at
// once with an error that wraps ErrAbandoned.
//
// Between batches nothing passes between goroutines: the worker goes from one
// batch to the next on its own, as a C loop does, and this goroutine sleeps
// until the job ends, the time-out's timer fires (at most once a
// KernelTimeout) or ctx is canceled. A job a batch, handed over and answered
// through channels, woke another thread of the Go scheduler at every batch,
// and the driver's worker threads then started launches later
// (docs/OWNCOST.md has the figures).
func (e *engine) runLoop(ctx context.Context, job func() error) error {
	if e.abandoned {
		return ErrAbandoned
	}
	l := &e.loop
	l.base = time.Now()
	l.callStart.Store(0)
	var jobErr error
	done := make(chan struct{})
	e.onWorker(func() {
		l.mu.Lock()
		l.on = true
		err := job()
		l.on = false
		jobErr = err
		close(done) // under mu, so that a watcher giving up sees it
		l.mu.Unlock()
	})
	// The watcher's timer fires at most once a time-out; each time it
	// re-arms itself for what the call running then has left.
	left := func() (time.Duration, bool) {
		st := l.callStart.Load()
		if st == 0 {
			return 0, false
		}
		return time.Duration(st-1) + e.s.KernelTimeout - time.Since(l.base), true
	}
	err := e.watch(ctx, done, e.s.KernelTimeout, left)
	if err == nil {
		return jobErr
	}
	// Give up, unless the loop ended meanwhile: it closes done under mu.
	l.mu.Lock()
	select {
	case <-done:
		l.mu.Unlock()
		return jobErr
	default:
	}
	l.gaveUp = true
	l.mu.Unlock()
	e.abandon()
	return err
}

// deviceCall runs f, a call into the device: straight on the worker inside
// the timed loop (watched by runLoop), else through call.
func deviceCall[T any](e *engine, ctx context.Context, f func() (T, error)) (T, error) {
	l := &e.loop
	if !l.on {
		return call(e, ctx, e.s.KernelTimeout, f)
	}
	l.callStart.Store(int64(time.Since(l.base)) + 1)
	l.mu.Unlock()
	v, err := f()
	l.mu.Lock()
	l.callStart.Store(0)
	if l.gaveUp {
		var zero T
		return zero, errGaveUp
	}
	return v, err
}
