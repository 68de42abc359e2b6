package measure

import (
	"context"
	goruntime "runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// gcPauseCap is how much the Go heap may grow while the collector is paused
// before it runs anyway (debug.SetMemoryLimit): a timed loop of tiny samples
// over a long --max-time must not grow without bound.
const gcPauseCap = 256 << 20

// gcBarrier is how much the heap may grow past its size after the last
// collection while a collection waits for the timed loops (gcCoord): beyond
// it, a timed loop about to start waits until the loops running end and the
// collection has run, so that the collector never needs gcPauseCap's limit,
// which would run it inside a loop.
const gcBarrier = 128 << 20

// gcBarrierWait is the longest a timed loop waits at the barrier: the
// default time budget of one benchmark (DefaultMaxTime).
const gcBarrierWait = DefaultMaxTime

// gcCoord is the one rule of the process for the Go collector and the timed
// loops of every device measured at once:
//
//   - while any timed loop (warm-up and samples) runs, the collector is off
//     (up to gcPauseCap: the memory limit then runs it anyway);
//   - a collection asked for at a benchmark's end (what its Teardown let go
//     of) runs at once when no timed loop runs, else when the last one ends,
//     by the goroutine that ends it;
//   - no timed loop starts while a collection runs;
//   - once the heap grew gcBarrier past its size after the last collection
//     while a collection waits, no timed loop starts until it has run (the
//     loops running end first: a device waits at most one benchmark), or
//     for gcBarrierWait at most: a loop that never ends (a device hung with
//     no kernel time-out) does not hold the other devices; past the wait
//     the memory limit is the collector's bound again.
//
// So a collection never lands inside another device's timed loop. It is
// process-wide because the collector is one a process.
type gcCoord struct {
	mu sync.Mutex
	// loops is the timed loops running now; pending is true when a
	// collection waits for them to end; collecting while one runs.
	loops      int
	pending    bool
	collecting bool
	// changed is closed (and replaced) whenever a wait may end.
	changed chan struct{}
	// afterGC is the heap's size after the last collection.
	afterGC uint64
	// The collector's settings before the first loop paused it.
	percent      int
	limit        int64
	limitChanged bool
	// collect runs a collection, heap reads the heap's size now (tests
	// replace them); barrierWait is gcBarrierWait.
	collect     func()
	heap        func() uint64
	barrierWait time.Duration
}

// gc is the process's coordinator.
var gc = newGCCoord(goruntime.GC, heapBytes)

func newGCCoord(collect func(), heap func() uint64) *gcCoord {
	return &gcCoord{changed: make(chan struct{}), collect: collect, heap: heap, barrierWait: gcBarrierWait}
}

// heapBytes is the bytes of the Go heap's objects now, live or not yet
// collected, read without stopping the world (runtime/metrics).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// signal wakes the waiters; c.mu is held.
func (c *gcCoord) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// enter starts a timed loop: it waits while a collection runs or must run
// first (see gcCoord), then pauses the collector. It returns the function
// that ends the loop, or ctx's error when ctx ends the wait.
func (c *gcCoord) enter(ctx context.Context) (leave func(), err error) {
	var expired <-chan time.Time
	waited := false // at the barrier, for barrierWait
	c.mu.Lock()
	for c.collecting || (c.pending && !waited && c.heap() >= c.afterGC+gcBarrier) {
		if !c.collecting && expired == nil {
			t := time.NewTimer(c.barrierWait)
			defer t.Stop()
			expired = t.C
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-expired:
			waited = true
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c.mu.Lock()
	}
	if c.loops == 0 {
		c.pause()
	}
	c.loops++
	c.mu.Unlock()
	var once sync.Once
	return func() { once.Do(c.leave) }, nil
}

// leave ends a timed loop; the last one turns the collector back on and
// runs the collection that waited for it.
func (c *gcCoord) leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loops--
	if c.loops > 0 {
		return
	}
	c.resume()
	if c.pending {
		c.pending = false
		c.run()
	}
	c.signal()
}

// request asks for a collection: now when no timed loop runs, else once the
// last ends.
func (c *gcCoord) request() {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.collecting:
	case c.loops > 0:
		c.pending = true
	default:
		c.run()
		c.signal()
	}
}

// run collects with c.mu let go (enter waits on collecting meanwhile).
func (c *gcCoord) run() {
	c.collecting = true
	c.mu.Unlock()
	c.collect()
	h := c.heap()
	c.mu.Lock()
	c.collecting, c.afterGC = false, h
}

// pause turns the collector off, up to gcPauseCap; c.mu is held and no loop
// runs (so the world's stop in ReadMemStats lands in none).
func (c *gcCoord) pause() {
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	c.limit = debug.SetMemoryLimit(-1)
	capped := int64(ms.Sys-ms.HeapReleased) + gcPauseCap
	c.limitChanged = capped < c.limit
	if c.limitChanged {
		debug.SetMemoryLimit(capped)
	}
	c.percent = debug.SetGCPercent(-1)
}

// resume puts the collector's settings back; c.mu is held.
func (c *gcCoord) resume() {
	debug.SetGCPercent(c.percent)
	if c.limitChanged {
		debug.SetMemoryLimit(c.limit)
	}
}
