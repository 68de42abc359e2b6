package measure

import (
	goruntime "runtime"
	"runtime/debug"
	"sync"
)

// gcPauseCap is how much the Go heap may grow while the collector is paused
// before it runs anyway (debug.SetMemoryLimit): a timed loop of tiny samples
// over a long --max-time must not grow without bound.
const gcPauseCap = 256 << 20

var gcPause struct {
	sync.Mutex
	depth        int
	percent      int
	limit        int64
	limitChanged bool
}

// pauseGC turns the garbage collector off (until the heap grows gcPauseCap)
// and returns the function that turns it back on. Pauses nest: concurrent
// Runs keep it off until the last one resumes it.
func pauseGC() (resume func()) {
	g := &gcPause
	g.Lock()
	if g.depth == 0 {
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		g.limit = debug.SetMemoryLimit(-1)
		capped := int64(ms.Sys-ms.HeapReleased) + gcPauseCap
		g.limitChanged = capped < g.limit
		if g.limitChanged {
			debug.SetMemoryLimit(capped)
		}
		g.percent = debug.SetGCPercent(-1)
	}
	g.depth++
	g.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.Lock()
			defer g.Unlock()
			g.depth--
			if g.depth == 0 {
				debug.SetGCPercent(g.percent)
				if g.limitChanged {
					debug.SetMemoryLimit(g.limit)
				}
			}
		})
	}
}
