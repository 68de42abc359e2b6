package measure

import (
	"context"
	"errors"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gcCycles is the collections the process has run.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A collection asked for while a loop runs waits for the last loop to end;
// with none running it runs at once.
func TestGCCoordPending(t *testing.T) {
	var n atomic.Int32
	c := newGCCoord(func() { n.Add(1) }, func() uint64 { return 0 })
	c.request()
	if n.Load() != 1 {
		t.Fatalf("no loop running: %d collections, want 1 at once", n.Load())
	}
	a, _ := c.enter(context.Background())
	b, _ := c.enter(context.Background())
	c.request()
	c.request()
	a()
	if n.Load() != 1 {
		t.Fatalf("a loop still runs: %d collections, want none yet", n.Load()-1)
	}
	b()
	if n.Load() != 2 {
		t.Fatalf("after the last loop: %d collections, want one (two requests, one collection)", n.Load()-1)
	}
	b() // a second leave of one loop counts once
	if c.loops != 0 {
		t.Errorf("loops %d after every leave, want 0", c.loops)
	}
}

// No loop starts while a collection runs.
func TestGCCoordNoLoopDuringCollection(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var done atomic.Bool
	c := newGCCoord(func() { close(started); <-release; done.Store(true) }, func() uint64 { return 0 })
	go c.request()
	<-started
	entered := make(chan bool)
	go func() {
		leave, _ := c.enter(context.Background())
		entered <- done.Load()
		leave()
	}()
	time.Sleep(20 * time.Millisecond) // let the loop try (it passes either way once the collection ended)
	close(release)
	if !<-entered {
		t.Error("a timed loop started while a collection ran")
	}
}

// Once the heap grew gcBarrier past the last collection while a collection
// waits, a new loop waits for the running ones to end and the collection to
// run; below it, it starts at once.
func TestGCCoordBarrier(t *testing.T) {
	var heap atomic.Uint64
	var n atomic.Int32
	c := newGCCoord(func() { n.Add(1); heap.Store(1 << 20) }, func() uint64 { return heap.Load() })
	running, _ := c.enter(context.Background())
	c.request()
	heap.Store(gcBarrier / 2)
	below, err := c.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	below()
	heap.Store(gcBarrier + 1)
	entered := make(chan int32)
	go func() {
		leave, _ := c.enter(context.Background())
		entered <- n.Load()
		leave()
	}()
	time.Sleep(20 * time.Millisecond)
	running()
	if got := <-entered; got != 1 {
		t.Errorf("the loop past the barrier started after %d collections, want 1", got)
	}
	// A canceled wait returns the context's error.
	held, _ := c.enter(context.Background())
	c.request()
	heap.Store(1<<20 + gcBarrier)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.enter(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled wait returned %v", err)
	}
	held()
}

// A loop that never ends (a device hung with no time-out) holds the others
// at the barrier for barrierWait at most.
func TestGCCoordBarrierBounded(t *testing.T) {
	c := newGCCoord(func() {}, func() uint64 { return 2 * gcBarrier })
	c.barrierWait = time.Millisecond
	hung, _ := c.enter(context.Background())
	c.request()
	done := make(chan error)
	go func() {
		leave, err := c.enter(context.Background())
		if err == nil {
			leave()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a hung loop held another device at the barrier")
	}
	hung()
}

// Two Runs at once (two devices): the collection each asks for at its end
// never runs while the other is in its timed loop, and runs once both are out.
func TestGCNotInAnotherRunsLoop(t *testing.T) {
	slow, s := newFake(constant(5 * us))
	s.Samples = 40
	others := make(chan struct{})
	var inLoop []uint64
	slow.onLaunch = func(i int) {
		if i == 0 {
			return // the cold run, before the timed loop
		}
		if i == 2 {
			<-others // the other device's Runs end while this loop runs
		}
		inLoop = append(inLoop, gcCycles())
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mustRun(t, slow, s)
	}()
	for range 3 {
		f, fs := newFake(constant(5 * us))
		fs.Samples = 3
		mustRun(t, f, fs)
	}
	close(others)
	wg.Wait()
	if len(inLoop) < 3 {
		t.Fatalf("%d launches in the timed loop", len(inLoop))
	}
	if first, last := inLoop[0], inLoop[len(inLoop)-1]; first != last {
		t.Errorf("%d collections ran inside the timed loop while the other device's Runs ended", last-first)
	}
	// Both are out: the waiting collection ran.
	if gcCycles() == inLoop[len(inLoop)-1] {
		t.Error("no collection after both Runs ended")
	}
}
