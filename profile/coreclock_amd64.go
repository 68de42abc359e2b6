package profile

import (
	"sync"
	"time"
)

// addChain runs n trips of four dependent additions (coreclock_amd64.s).
func addChain(n int64) int64

// CoreClockMHz measures the clock this process's core runs at: a chain of
// dependent integer additions takes one cycle each on every x86-64 core, so
// additions per second are cycles per second. It takes the best of five runs
// of about 20 ms each (the core has ramped up by then; a run the scheduler
// interrupted is slower, never faster). It is what a CPU device's theoretical
// compute figure uses: CL_DEVICE_MAX_CLOCK_FREQUENCY is the base clock, and
// cores boost far above it. It is measured once a process (about 0.1 s).
func CoreClockMHz() (mhz int, ok bool) { return coreClock() }

var coreClock = sync.OnceValues(measureCoreClock)

func measureCoreClock() (mhz int, ok bool) {
	const trips = 20_000_000 // 80 M cycles: 20 ms at 4 GHz
	addChain(trips)          // ramp up
	best := time.Duration(1<<63 - 1)
	for i := 0; i < 5; i++ {
		t := time.Now()
		if addChain(trips) != 4*trips {
			return 0, false
		}
		best = min(best, time.Since(t))
	}
	if best <= 0 {
		return 0, false
	}
	return int(4 * trips / best.Seconds() / 1e6), true
}
