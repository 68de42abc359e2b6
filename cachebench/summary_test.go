package cachebench

import (
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/runtime/cache"
)

// rowsOf makes one trial per mode with the given TTFR builds (enumeration,
// context and first launch fixed) and a miss that stores for store.
func rowsOf(builds [5]time.Duration, store time.Duration) []benchRow {
	rows := make([]benchRow, len(benchModes))
	for i, m := range benchModes {
		r := childResult{Enumeration: 100 * time.Millisecond, Context: 10 * time.Millisecond, Build: builds[i], FirstLaunch: time.Millisecond,
			FromCache: m.warm() && m.Ours, Wall: 200*time.Millisecond + builds[i]}
		if m.Miss {
			r.Store, r.StoredBytes = store, 4096
			r.Wall += store
		}
		rows[i] = benchRow{Program: "p", Mode: m, Trials: []childResult{r}}
	}
	return rows
}

func TestSummaryBreakEvenAndVerdict(t *testing.T) {
	ms := time.Millisecond
	// cold 1000, driver 100, ours 50, both 20 ms of build; the miss stores 400 ms.
	s := summarizeProgram("p", rowsOf([5]time.Duration{1000 * ms, 100 * ms, 50 * ms, 20 * ms, 1000 * ms}, 400*ms))
	if got := s.ttfr(modeCold); got != 1111*ms {
		t.Errorf("cold TTFR %v, want 1.111s", got)
	}
	// Each run with both warm saves 80 ms against the driver's alone: 5 runs repay 400 ms.
	if s.hitSaving() != 80*ms || s.breakEven() != 5 {
		t.Errorf("saving %v, break-even %d; want 80ms, 5", s.hitSaving(), s.breakEven())
	}
	if s.BinaryBytes != 4096 {
		t.Errorf("entry size %d", s.BinaryBytes)
	}
	// Both warm no better than the driver's alone: never repaid.
	never := summarizeProgram("p", rowsOf([5]time.Duration{1000 * ms, 20 * ms, 50 * ms, 20 * ms, 1000 * ms}, 400*ms))
	if never.breakEven() != 0 || !strings.Contains(never.breakEvenText(), "never repaid") {
		t.Errorf("break-even %d (%s), want never", never.breakEven(), never.breakEvenText())
	}
	v := deviceVerdict("H200", "nvidia", cache.PolicyFor("nvidia", nil), []programSummary{s})
	for _, w := range []string{"verdict on H200 (nvidia)", "driver's cache alone p 5.27x faster than cold", "off by default on nvidia", "p 400 ms"} {
		if !strings.Contains(v, w) {
			t.Errorf("verdict lacks %q:\n%s", w, v)
		}
	}
	if n := hitNote(s.Modes[modeOurs].Row); n != "" {
		t.Errorf("hit note %q for a mode whose trial hit", n)
	}
	s.Modes[modeOurs].Row.Trials[0].FromCache = false
	if n := hitNote(s.Modes[modeOurs].Row); !strings.Contains(n, "0 of 1 trials hit") {
		t.Errorf("hit note %q for a warm mode that missed", n)
	}
}

func TestContextNote(t *testing.T) {
	ms := time.Millisecond
	s := summarizeProgram("p", rowsOf([5]time.Duration{1000 * ms, 100 * ms, 50 * ms, 20 * ms, 1000 * ms}, 400*ms))
	if n := contextNote(s); n != "" {
		t.Errorf("equal contexts gave a note: %q", n)
	}
	for _, i := range []int{modeCold, modeOurs, modeMiss} { // the driver's cache off: NVIDIA's slow context
		s.Modes[i].Parts[1] = 1500 * ms
	}
	if n := contextNote(s); !strings.Contains(n, "1500-1500 ms with the driver's cache turned off against 10.0 ms") {
		t.Errorf("note %q", n)
	}
}
