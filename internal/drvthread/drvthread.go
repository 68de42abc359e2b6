// Package drvthread keeps long-lived OS threads for the calls into a driver,
// one a device (a Home), each prepared before the first of them, as a C
// program's main thread is.
//
// A driver does its work on the thread that calls it: PoCL parses a program's
// binary, LLVM and all, in clBuildProgram, and allocates with the C library's
// malloc from that thread's heap. In a fresh process every page of that heap
// is backed on its first touch, one page fault a page; on a VM whose host backs
// guest memory on demand a fault costs 10-20 µs, and a warm PoCL build from a
// binary took about 160 of them (docs/OWNCOST.md). A driver thread runs a
// preparation first (Prepare: runtime sets the C heap's), so that the builds
// and launches made on it find their memory ready; and every call a device's
// measurements make comes from its one thread, as in a C program that drives
// one device from one thread (some drivers keep per-thread state).
//
// Each device has a Home: its own driver thread, so that two devices measured
// at once never queue their launches on one OS thread. In clmeter the process's
// main thread (ServeMain), the thread a C program calls the driver from, is the
// driver thread of the first device that starts one, made ready by Start
// while the devices are enumerated; the other devices' threads are started for
// them. One thread serves one caller at a time (Home.Acquire, Release). A
// caller that finds its device's thread taken gets a thread of its own for the
// while; a caller that must give up on a call still running (a hung driver)
// retires its thread (Retire): the thread ends (the main thread stops
// serving) once the call returns, and the Home's next Acquire starts a new one.
package drvthread

import (
	goruntime "runtime"
	"sync"
)

// Prepare, when set, runs first on every driver thread (the package that owns
// the driver's memory sets it, once, in an init function). A thread started
// because a Home's thread was taken skips it: that caller is waiting.
var Prepare func()

// Worker is a locked OS thread that runs jobs in order.
type Worker struct {
	jobs chan func()
	// home is the Home whose driver thread this is; nil for a thread started
	// for one caller because its Home's was taken.
	home *Home
	// main is true for the process's main thread (ServeMain).
	main bool
}

// spare is the process's first driver thread while no Home has claimed it:
// the main thread that ServeMain offers, or one Start made; Start runs
// Prepare on it while the devices are enumerated. It is process-wide
// because the main thread is one a process.
var spare struct {
	sync.Mutex
	w *Worker
	// offered is true once ServeMain or Start made the spare thread (a
	// second ServeMain after that is a mistake).
	offered bool
	// prepared is true once Prepare was handed to it.
	prepared bool
}

// Start makes the first driver thread ready in the background, with Prepare:
// the main thread ServeMain offered, else a thread started now. The first Home
// to start takes it. It returns once the thread has taken Prepare.
func Start() {
	spare.Lock()
	defer spare.Unlock()
	if !spare.offered {
		spare.offered = true
		spare.w = newWorker(nil)
	}
	if w := spare.w; w != nil && !spare.prepared {
		spare.prepared = true
		if p := Prepare; p != nil {
			w.Do(p) // the thread is idle: it takes the job at once
		}
	}
}

// claimSpare returns the spare thread, prepared, for h, or nil when it was
// claimed already or never made.
func claimSpare(h *Home) *Worker {
	spare.Lock()
	defer spare.Unlock()
	w := spare.w
	if w == nil {
		return nil
	}
	spare.w = nil
	if !spare.prepared {
		spare.prepared = true
		if p := Prepare; p != nil {
			w.Do(p)
		}
	}
	w.home = h
	return w
}

// ServeMain makes the calling goroutine's OS thread the first driver thread
// and runs body on a goroutine of its own. Called from main, with the main
// goroutine locked to the main thread by runtime.LockOSThread in an init
// function, it gives the driver the thread a C program calls it from: the
// same C launch loop can run back to back slower on a thread of its own than
// on the main thread (docs/OWNCOST.md has the figures). Prepare runs on it at
// Start. The thread serves jobs until body returns, and ServeMain returns
// then; a retired thread serves none after the job it was stuck in. A job
// can outlive body (a hung driver): a body that must end the process then
// calls os.Exit itself.
func ServeMain(body func()) {
	w := &Worker{jobs: make(chan func()), main: true}
	spare.Lock()
	if spare.offered {
		spare.Unlock()
		panic("drvthread: ServeMain after the driver thread started")
	}
	spare.offered, spare.w = true, w
	spare.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		body()
	}()
	w.serve(done)
	<-done
}

// serve runs w's jobs on the calling thread until they are closed (a retired
// thread) or done is (nil: never).
func (w *Worker) serve(done <-chan struct{}) {
	for {
		select {
		case job, ok := <-w.jobs:
			if !ok {
				return
			}
			job()
		case <-done:
			return
		}
	}
}

// newWorker starts a locked thread serving its jobs until they are closed.
// Once the jobs are closed the thread goes back to the Go scheduler's pool.
func newWorker(h *Home) *Worker {
	w := &Worker{jobs: make(chan func()), home: h}
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		w.serve(nil)
	}()
	return w
}

// A Home is one device's driver thread. The zero value is ready: its thread
// starts on first use. A Device owns one (runtime.Device.DriverThread).
type Home struct {
	mu   sync.Mutex
	idle *Worker // the driver thread when no caller holds it
	// started is true once the driver thread exists (idle or held).
	started bool
}

// start starts h's driver thread, unless it exists: the spare thread when
// no Home has claimed it, else a new thread that runs Prepare first. h.mu is
// held.
func (h *Home) start() {
	if h.started {
		return
	}
	h.started = true
	if w := claimSpare(h); w != nil {
		h.idle = w
		return
	}
	h.idle = newWorker(h)
	if p := Prepare; p != nil {
		h.idle.Do(p)
	}
}

// Start starts h's driver thread in the background, with Prepare, unless it
// exists.
func (h *Home) Start() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.start()
}

// Acquire returns h's driver thread (started now when it does not exist) or,
// while another caller holds it, a new thread for this caller alone. Every
// Acquire is followed by Release or Retire.
func (h *Home) Acquire() *Worker {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.start()
	if w := h.idle; w != nil {
		h.idle = nil
		return w
	}
	return newWorker(nil)
}

// Close gives up h's driver thread when no caller holds it: it becomes the
// spare thread again, prepared, for the next Home to start (the device's
// Manager was closed, and a later one's first device takes it), or ends when
// there is a spare already. A thread a caller holds is left to it. h may be
// used again after: its next Acquire starts a thread.
func (h *Home) Close() {
	h.mu.Lock()
	w := h.idle
	if w == nil {
		h.mu.Unlock()
		return
	}
	h.idle, h.started = nil, false
	h.mu.Unlock()
	spare.Lock()
	defer spare.Unlock()
	if spare.w == nil {
		w.home = nil
		spare.w, spare.offered, spare.prepared = w, true, true
		return
	}
	if !w.main {
		close(w.jobs)
	}
}

// Alone returns a thread for one caller with no Home (a benchmark of no
// device's): it ends at Release or Retire.
func Alone() *Worker { return newWorker(nil) }

// Do runs job on w's thread and returns once the thread has taken it (not
// once it is done: the caller waits on the job's own result).
func (w *Worker) Do(job func()) { w.jobs <- job }

// Release gives w back: a driver thread waits for its Home's next caller; a
// thread of a caller's own ends.
func (w *Worker) Release() {
	h := w.home
	if h == nil {
		close(w.jobs)
		return
	}
	h.mu.Lock()
	h.idle = w
	h.mu.Unlock()
}

// Retire gives w up while a job of it may still run: its thread ends once
// that job returns, and when w is a Home's driver thread the Home's next
// Acquire starts a new one.
func (w *Worker) Retire() {
	close(w.jobs)
	if h := w.home; h != nil {
		h.mu.Lock()
		h.started = false
		h.mu.Unlock()
	}
}
