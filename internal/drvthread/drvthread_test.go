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

// forget drops the driver thread (its jobs closed, so it ends) and Prepare.
func forget(prepare func()) {
	mu.Lock()
	if idle != nil {
		close(idle.jobs)
	}
	idle, started, unprepared = nil, false, nil
	mu.Unlock()
	Prepare = prepare
}

// reset forgets the driver thread (each test starts from none), sets
// Prepare, and forgets them again after the test. A thread a test holds ends
// when the test closes its jobs.
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

func TestOneThreadAcrossCallers(t *testing.T) {
	var prepared atomic.Int32
	var prepTID atomic.Int64
	reset(t, func() { prepared.Add(1); prepTID.Store(int64(syscall.Gettid())) })
	Start()
	Start() // a second Start starts nothing
	first := 0
	for i := 0; i < 5; i++ {
		w := Acquire()
		if !w.main {
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

func TestTakenThreadGivesAnother(t *testing.T) {
	var prepared atomic.Int32
	reset(t, func() { prepared.Add(1) })
	a := Acquire()
	b := Acquire()
	if !a.main || b.main {
		t.Fatalf("main flags %v %v, want the first caller on the driver thread", a.main, b.main)
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
	if c := Acquire(); !c.main {
		t.Error("after both released, a caller got a thread of its own")
	} else {
		c.Release()
	}
}

func TestRetireWhileStuck(t *testing.T) {
	reset(t, nil)
	w := Acquire()
	stuck := tid(w)
	block := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	w.Do(func() { <-block; wg.Done() }) // a driver call that does not return
	w.Retire()
	// The next caller gets a new driver thread that serves at once.
	n := Acquire()
	if !n.main {
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
	prepared := make(chan int, 2)
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
	// Start once ServeMain has made its thread the driver thread: a Start
	// before that would start a thread of its own (and ServeMain then
	// panics, as it should), which a loaded machine made happen in make test.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		up := started
		mu.Unlock()
		if up {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ServeMain did not take the driver thread in 10s")
		}
	}
	Start()
	if got := <-prepared; got != main {
		t.Fatalf("Prepare ran on thread %d, not ServeMain's %d", got, main)
	}
	w := Acquire()
	if got := tid(w); got != main {
		t.Fatalf("the driver thread's job ran on thread %d, not ServeMain's %d", got, main)
	}
	// Taken, it gives the next caller a thread of its own.
	other := Acquire()
	if got := tid(other); got == main {
		t.Fatalf("a second caller got the held driver thread %d", got)
	}
	other.Release()
	w.Release()
	if got := tid(Acquire()); got != main {
		t.Fatalf("released, the driver thread was %d, not %d", got, main)
	}
	select {
	case p := <-prepared:
		t.Fatalf("Prepare ran twice (again on %d)", p)
	default:
	}
	close(release)
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("ServeMain did not return once its body had")
	}
}
