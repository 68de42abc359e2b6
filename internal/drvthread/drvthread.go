// Package drvthread keeps one long-lived OS thread for the calls into a
// driver, prepared before the first of them, as a C program's main thread is.
//
// A driver does its work on the thread that calls it: PoCL parses a program's
// binary, LLVM and all, in clBuildProgram, and allocates with the C library's
// malloc from that thread's heap. In a fresh process every page of that heap
// is backed on its first touch, one page fault a page; on a VM whose host backs
// guest memory on demand a fault costs 10-20 µs, and a warm PoCL build from a
// binary took about 160 of them (docs/OWNCOST.md). The driver thread runs a
// preparation first (Prepare: runtime sets the C heap's), in the background
// while the process enumerates its devices, so that the builds and launches
// made on it find their memory ready.
//
// In clmeter the driver thread is the process's main thread (ServeMain), the
// thread a C program calls the driver from; elsewhere (tests) it is a thread
// started for it. One thread serves one caller at a time (Acquire, Release).
// A caller that finds it taken gets a thread of its own for the while, as
// before; a caller that must give up on a call still running (a hung driver)
// retires its thread (Retire): the thread ends (the main thread stops serving)
// once the call returns, and the next Acquire starts a new one.
package drvthread

import (
	goruntime "runtime"
	"sync"
)

// Prepare, when set, runs first on the driver thread (the package that owns
// the driver's memory sets it, once, before Start). A thread started because
// the driver thread was taken skips it: that caller is waiting.
var Prepare func()

// Worker is a locked OS thread that runs jobs in order.
type Worker struct {
	jobs chan func()
	// main is true for the process's driver thread, false for a thread
	// started because it was taken.
	main bool
}

var (
	mu   sync.Mutex
	idle *Worker // the driver thread when no caller holds it
	// started is true once the driver thread exists (idle or held).
	started bool
	// unprepared is the driver thread while Prepare has not run on it yet.
	unprepared *Worker
)

// Start starts the driver thread in the background, with Prepare, unless it
// exists. It returns once the thread has taken Prepare.
func Start() {
	mu.Lock()
	defer mu.Unlock()
	start()
}

// start is Start with mu held.
func start() {
	if !started {
		started = true
		idle = newWorker(true)
		unprepared = idle
	}
	if w := unprepared; w != nil {
		unprepared = nil
		if p := Prepare; p != nil {
			w.Do(p) // the thread is idle: it takes the job at once
		}
	}
}

// ServeMain makes the calling goroutine's OS thread the driver thread and
// runs body on a goroutine of its own. Called from main, with the main
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
	mu.Lock()
	if started {
		mu.Unlock()
		panic("drvthread: ServeMain after the driver thread started")
	}
	started, idle, unprepared = true, w, w
	mu.Unlock()
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

// newWorker starts a locked thread serving its jobs until they are closed
// (the driver thread's first is Prepare, from start). Once the jobs are
// closed the thread goes back to the Go scheduler's pool.
func newWorker(main bool) *Worker {
	w := &Worker{jobs: make(chan func()), main: main}
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		w.serve(nil)
	}()
	return w
}

// Acquire returns the driver thread (started now when it does not exist) or,
// while another caller holds it, a new thread for this caller alone. Every
// Acquire is followed by Release or Retire.
func Acquire() *Worker {
	mu.Lock()
	defer mu.Unlock()
	start()
	if w := idle; w != nil {
		idle = nil
		return w
	}
	return newWorker(false)
}

// Do runs job on w's thread and returns once the thread has taken it (not
// once it is done: the caller waits on the job's own result).
func (w *Worker) Do(job func()) { w.jobs <- job }

// Release gives w back: the driver thread waits for its next caller; a
// thread of a caller's own ends.
func (w *Worker) Release() {
	if !w.main {
		close(w.jobs)
		return
	}
	mu.Lock()
	idle = w
	mu.Unlock()
}

// Retire gives w up while a job of it may still run: its thread ends once
// that job returns, and when w is the driver thread the next Acquire starts a
// new one.
func (w *Worker) Retire() {
	close(w.jobs)
	if w.main {
		mu.Lock()
		started = false
		mu.Unlock()
	}
}
