package measure

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/internal/drvthread"
)

// DefaultGrace is how long a call into a Benchmark may go on after the context
// was canceled before the engine abandons it (Settings.Grace): short enough
// that Ctrl-C ends a run within 2 s even while the device is busy.
const DefaultGrace = 1500 * time.Millisecond

// ErrKernelTimeout is wrapped by the error of a call that was still running
// after Settings.KernelTimeout.
var ErrKernelTimeout = errors.New("the device did not finish in time")

// ErrAbandoned is wrapped by the error of a call the engine stopped waiting for
// (after Settings.KernelTimeout, or Settings.Grace after a cancellation). The
// device may still be busy with it: it must not be used again in this process.
var ErrAbandoned = errors.New("the wait for the device was abandoned")

// call runs f, a call into the benchmark, on the engine's worker and waits for it,
// for ctx's cancellation plus s.Grace, and for timeout (when positive). A call
// that outlasts either is abandoned: the benchmark is told (Abandoner), its
// Teardown is skipped, and the error wraps ErrAbandoned and ctx.Err() or
// ErrKernelTimeout. The figures are timed inside f, so the hand-off costs them
// nothing. f's results are read only once it is done, so an abandoned call
// that ends later touches nothing the caller reads.
func call[T any](e *engine, ctx context.Context, timeout time.Duration, f func() (T, error)) (T, error) {
	var zero T
	if e.abandoned {
		return zero, ErrAbandoned
	}
	var v T
	var err error
	done := make(chan struct{})
	e.onWorker(func() {
		v, err = f()
		close(done)
	})
	if werr := e.watch(ctx, done, timeout, nil); werr != nil {
		e.abandon()
		return zero, werr // v and err are the abandoned call's alone now
	}
	return v, err
}

// watch waits until done is closed (nil), or gives up on the call running
// then: once it has run timeout (when positive), or Settings.Grace after ctx's
// cancellation; the error says which and wraps ErrAbandoned. left, when set,
// tells how long the call running now has to go, or false when none is
// running (then it has a whole timeout); without it the call is one that
// started with the wait.
func (e *engine) watch(ctx context.Context, done <-chan struct{}, timeout time.Duration, left func() (time.Duration, bool)) error {
	var timeoutC, graceC <-chan time.Time
	var t *time.Timer
	if timeout > 0 {
		t = time.NewTimer(timeout)
		defer t.Stop()
		timeoutC = t.C
	}
	ctxDone := ctx.Done()
	for {
		select {
		case <-done:
			return nil
		case <-timeoutC:
			var d time.Duration
			if left != nil {
				var running bool
				if d, running = left(); !running {
					d = timeout
				}
			}
			if d <= 0 {
				return fmt.Errorf("%w: still running after --kernel-timeout %s (%w)", ErrKernelTimeout, timeout, ErrAbandoned)
			}
			t.Reset(d)
		case <-ctxDone:
			ctxDone = nil
			g := time.NewTimer(e.s.Grace)
			defer g.Stop()
			graceC = g.C
		case <-graceC:
			return fmt.Errorf("%w: the device was still busy %s after it; its work was abandoned (%w)", ctx.Err(), e.s.Grace, ErrAbandoned)
		}
	}
}

// abandon marks the engine as having given up on a call and tells the
// benchmark.
func (e *engine) abandon() {
	if e.abandoned {
		return
	}
	e.abandoned = true
	e.r.Abandoned = true
	if a, ok := e.b.(Abandoner); ok {
		a.Abandon()
	}
}

// onWorker runs job on the engine's worker: one OS thread for the whole Run,
// so that every call into the driver (set-up, launches, finishes) comes from
// the same thread, as in a C loop. With a goroutine a call, the calls landed
// on whichever thread the scheduler picked: on PoCL the enqueue loop moved
// between threads from batch to batch (docs/OWNCOST.md). The worker is the
// device's driver thread (Settings.Thread) when no other Run holds it, its C
// heap made ready before its first call; without a device, a thread of the
// Run's own.
func (e *engine) onWorker(job func()) {
	if e.worker == nil {
		if h := e.s.Thread; h != nil {
			e.worker = h.Acquire()
		} else {
			e.worker = drvthread.Alone()
		}
	}
	e.worker.Do(job)
}

// stopWorker gives the worker back once the Run is over; a worker whose job
// the engine abandoned is retired instead, its thread ending once the job
// returns.
func (e *engine) stopWorker() {
	if e.worker == nil {
		return
	}
	if e.abandoned {
		e.worker.Retire()
	} else {
		e.worker.Release()
	}
	e.worker = nil
}
