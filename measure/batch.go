package measure

import (
	"math"
	"time"
)

// growth is the most a batch size may grow in one step (testing.B uses the same):
// a first launch that was fast by accident must not make the next batch run for
// minutes.
const growth = 100

// predictN returns the launches for the next batch so that it lasts goal, given
// that the last batch of last launches lasted took.
func predictN(goal, took time.Duration, last, maxLaunches int) int {
	// A batch that took no measurable time counts as 1 ns, to dodge a division
	// by zero; the growth limit below keeps the step sane.
	if took <= 0 {
		took = 1
	}
	n := float64(goal) * float64(last) / float64(took)
	// 20% headroom: the next batch should clear goal even if it runs a little
	// faster than the last one.
	n += n / 5
	// At most growth times the last size (see growth).
	n = math.Min(n, float64(growth)*float64(last))
	// At least one more than last time, so calibration always makes progress.
	n = math.Max(n, float64(last+1))
	// Never more than the cap (Settings.MaxLaunches).
	n = math.Min(n, float64(maxLaunches))
	return int(n)
}

// sizeFor returns the batch size that makes a batch last goal with 20% headroom
// at perLaunch a launch. Unlike predictN it may shrink: it sets the steady size
// once calibration has overshot.
func sizeFor(goal, perLaunch time.Duration, maxLaunches int) int {
	if perLaunch <= 0 {
		perLaunch = 1
	}
	n := float64(goal) / float64(perLaunch)
	n += n / 5
	return int(math.Max(1, math.Min(n, float64(maxLaunches))))
}
