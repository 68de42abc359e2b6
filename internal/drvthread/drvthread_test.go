//go:build linux

package drvthread

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// forget drops the spare thread (its jobs closed, so it ends) and Prepare.
func forget(prepare func()) {
	spare.Lock()
	if spare.w != nil && !spare.w.main {
		close(spare.w.jobs)
	}
	spare.w, spare.offered, spare.prepared = nil, false, false
	spare.Unlock()
	Prepare = prepare
}

// reset forgets the spare thread (each test starts from none), sets Prepare,
// and forgets them again after the test.
func reset(t *testing.T, prepare func()) {
	t.Helper()
	forget(prepare)
	t.Cleanup(func() { forget(nil) })
}

// tid runs a job on w and returns the OS thread it ran on.
func tid(w *Worker) int {
	c := make(chan int)
	w.Do(func() { c <- syscall.Gettid() })
	return <-c
}

// stop ends h's idle driver thread after a test.
func stop(h *Home) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.idle != nil && !h.idle.main {
		close(h.idle.jobs)
	}
	h.idle, h.started = nil, false
}

func TestOneThreadAcrossCallers(t *testing.T) {
	var prepared atomic.Int32
	var prepTID atomic.Int64
	reset(t, func() { prepared.Add(1); prepTID.Store(int64(syscall.Gettid())) })
	Start()
	Start() // a second Start starts nothing
	var h Home
	defer stop(&h)
	first := 0
	for i := 0; i < 5; i++ {
		w := h.Acquire()
		if w.home != &h {
			t.Fatalf("caller %d got a thread of its own while the driver thread was free", i)
		}
		id := tid(w)
		if i == 0 {
			first = id
		} else if id != first {
			t.Errorf("caller %d ran on thread %d, the first on %d", i, id, first)
		}
		w.Release()
	}
	if n := prepared.Load(); n != 1 {
		t.Errorf("Prepare ran %d times, want once", n)
	}
	if int(prepTID.Load()) != first {
		t.Errorf("Prepare ran on thread %d, the jobs on %d", prepTID.Load(), first)
	}
}

// Two Homes (two devices) have two driver threads, each prepared, each
// serving its own callers at once.
func TestHomesHaveOwnThreads(t *testing.T) {
	prepared := make(chan int, 4)
	reset(t, func() { prepared <- syscall.Gettid() })
	Start()
	var a, b Home
	defer stop(&a)
	defer stop(&b)
	wa, wb := a.Acquire(), b.Acquire()
	if wa.home != &a || wb.home != &b {
		t.Fatal("a Home's first caller did not get its driver thread")
	}
	// Both threads run a job at once: neither waits for the other.
	ta, tb := make(chan int), make(chan int)
	release := make(chan struct{})
	wa.Do(func() { ta <- syscall.Gettid(); <-release })
	wb.Do(func() { tb <- syscall.Gettid(); <-release })
	ida, idb := <-ta, <-tb
	close(release)
	if ida == idb {
		t.Fatalf("two devices' jobs on one thread %d", ida)
	}
	got := map[int]bool{<-prepared: true, <-prepared: true}
	if !got[ida] || !got[idb] {
		t.Errorf("Prepare ran on threads %v, the devices' threads are %d and %d", got, ida, idb)
	}
	wa.Release()
	wb.Release()
	if w := a.Acquire(); tid(w) != ida {
		t.Error("a Home's driver thread changed between callers")
	} else {
		w.Release()
	}
}

func TestTakenThreadGivesAnother(t *testing.T) {
	var prepared atomic.Int32
	reset(t, func() { prepared.Add(1) })
	var h Home
	defer stop(&h)
	a := h.Acquire()
	b := h.Acquire()
	if a.home != &h || b.home != nil {
		t.Fatalf("homes %p %p, want the first caller on the driver thread", a.home, b.home)
	}
	if ta, tb := tid(a), tid(b); ta == tb {
		t.Errorf("two callers at once on one thread %d", ta)
	}
	b.Release()
	a.Release()
	if n := prepared.Load(); n != 1 {
		t.Errorf("Prepare ran %d times, want once (a caller's own thread skips it)", n)
	}
	// The driver thread is free again.
	if c := h.Acquire(); c.home != &h {
		t.Error("after both released, a caller got a thread of its own")
	} else {
		c.Release()
	}
}

func TestRetireWhileStuck(t *testing.T) {
	reset(t, nil)
	var h Home
	defer stop(&h)
	w := h.Acquire()
	stuck := tid(w)
	block := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	w.Do(func() { <-block; wg.Done() }) // a driver call that does not return
	w.Retire()
	// The next caller gets a new driver thread that serves at once.
	n := h.Acquire()
	if n.home != &h {
		t.Fatal("after Retire, the next caller did not get a new driver thread")
	}
	done := make(chan int)
	go func() { done <- tid(n) }()
	select {
	case id := <-done:
		if id == stuck {
			t.Errorf("the new driver thread is the stuck one (%d)", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the new driver thread did not run a job while the retired one was stuck")
	}
	n.Release()
	close(block)
	wg.Wait()
}

func TestServeMainIsTheDriverThread(t *testing.T) {
	prepared := make(chan int, 3)
	reset(t, func() { prepared <- syscall.Gettid() })
	served := make(chan int)
	release := make(chan struct{})
	returned := make(chan struct{})
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		served <- syscall.Gettid()
		ServeMain(func() { <-release })
		close(returned)
	}()
	main := <-served
	// Start once ServeMain has offered its thread: a Start before that
	// would start a thread of its own (and ServeMain then panics, as it
	// should).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		spare.Lock()
		up := spare.offered
		spare.Unlock()
		if up {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ServeMain did not offer the main thread in 10s")
		}
	}
	Start()
	if got := <-prepared; got != main {
		t.Fatalf("Prepare ran on thread %d, not ServeMain's %d", got, main)
	}
	var first, second Home
	defer stop(&second)
	w := first.Acquire()
	if got := tid(w); got != main {
		t.Fatalf("the first device's job ran on thread %d, not ServeMain's %d", got, main)
	}
	// Taken, it gives the next caller a thread of its own.
	other := first.Acquire()
	if got := tid(other); got == main {
		t.Fatalf("a second caller got the held driver thread %d", got)
	}
	other.Release()
	// A second device gets a thread of its own, prepared.
	s := second.Acquire()
	if got := tid(s); got == main {
		t.Fatal("the second device's driver thread is the main thread")
	} else if p := <-prepared; p != got {
		t.Fatalf("Prepare ran on %d, the second device's thread is %d", p, got)
	}
	s.Release()
	w.Release()
	if got := tid(first.Acquire()); got != main {
		t.Fatalf("released, the first device's driver thread was %d, not %d", got, main)
	}
	select {
	case p := <-prepared:
		t.Fatalf("Prepare ran again (on %d)", p)
	default:
	}
	close(release)
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("ServeMain did not return once its body had")
	}
}

// A closed Home's thread, prepared, goes to the next Home to start (the next
// Manager's first device): threads do not pile up across Managers.
func TestCloseGivesTheThreadOn(t *testing.T) {
	var prepared atomic.Int32
	reset(t, func() { prepared.Add(1) })
	var a, b Home
	defer stop(&b)
	w := a.Acquire()
	first := tid(w)
	w.Release()
	a.Close()
	w = b.Acquire()
	if got := tid(w); got != first {
		t.Errorf("the next Home's thread is %d, the closed one's %d", got, first)
	}
	w.Release()
	if n := prepared.Load(); n != 1 {
		t.Errorf("Prepare ran %d times, want once", n)
	}
	// A held thread is left to its caller; the Home starts anew after.
	h := b.Acquire()
	b.Close()
	if tid(h) != first {
		t.Error("Close took a held thread away")
	}
	h.Release()
}
