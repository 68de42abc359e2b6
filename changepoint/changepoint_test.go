package changepoint

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// series makes n points around 100 with Gaussian noise of relative size noise,
// shifted by shift (relative) from index at on (no shift when at <= 0).
func series(rng *rand.Rand, n, at int, shift, noise float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		level := 100.0
		if at > 0 && i >= at {
			level *= 1 + shift
		}
		x[i] = level * (1 + noise*rng.NormFloat64())
	}
	return x
}

func TestStepFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := series(rng, 40, 25, 0.2, 0.01)
	got := Detect(x, Settings{})
	if len(got) != 1 {
		t.Fatalf("want one change, got %+v", got)
	}
	c := got[0]
	if c.Index != 25 {
		t.Errorf("change at %d, want 25", c.Index)
	}
	if c.Size < 0.17 || c.Size > 0.23 {
		t.Errorf("size %.3f, want about +0.20", c.Size)
	}
	if c.Before.N != 25 || c.After.N != 15 || c.Before.Start != 0 || c.After.Start != 25 {
		t.Errorf("segments %+v %+v", c.Before, c.After)
	}
	if c.PValue > DefaultMaxPValue || c.Confidence < 1-DefaultMaxPValue || c.Energy <= 0 {
		t.Errorf("p %g confidence %g energy %g", c.PValue, c.Confidence, c.Energy)
	}
}

func TestSeveralChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := append(series(rng, 20, 0, 0, 0.01), series(rng, 20, 0, 0, 0.01)...)
	for i := 20; i < 40; i++ {
		x[i] *= 1.3
	}
	x = append(x, series(rng, 20, 0, 0, 0.01)...) // back to 100
	got := Detect(x, Settings{})
	if len(got) != 2 || got[0].Index != 20 || got[1].Index != 40 {
		t.Fatalf("want changes at 20 and 40, got %+v", got)
	}
	if got[0].Size < 0.25 || got[1].Size > -0.2 {
		t.Errorf("sizes %.3f %.3f, want about +0.30 and -0.23", got[0].Size, got[1].Size)
	}
	if got[0].After.N != 20 || got[1].Before.N != 20 {
		t.Errorf("segments between changes: %+v %+v", got[0].After, got[1].Before)
	}
}

func TestShortAndFlat(t *testing.T) {
	if c := Detect([]float64{1, 2, 3}, Settings{}); len(c) != 0 {
		t.Errorf("3 points: %+v", c)
	}
	if c := Detect(nil, Settings{}); c == nil || len(c) != 0 {
		t.Errorf("nil: %#v, want an empty list", c)
	}
	flat := make([]float64, 50)
	for i := range flat {
		flat[i] = 7
	}
	if c := Detect(flat, Settings{}); len(c) != 0 {
		t.Errorf("constant series: %+v", c)
	}
}

func TestEnergyMatchesIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := series(rng, 30, 12, 0.1, 0.02)
	tau, q := bestSplit(x, 3)
	for t2 := 3; t2 <= 27; t2++ {
		if e := energy(x, t2); e > q+1e-9 {
			t.Errorf("energy(%d) = %g above the best %g at %d", t2, e, q, tau)
		}
	}
	if e := energy(x, tau); e < q-1e-9 || e > q+1e-9 {
		t.Errorf("incremental Q %g, direct %g", q, e)
	}
}

func TestPermutationFindsStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := series(rng, 30, 15, 0.2, 0.01)
	got := Detect(x, Settings{Method: EDivisive, Test: Permutation, MaxPValue: 0.01, Permutations: 199, Seed: 1})
	if len(got) != 1 || got[0].Index != 15 {
		t.Fatalf("want one change at 15, got %+v", got)
	}
	if got[0].PValue > 0.01 {
		t.Errorf("p %g", got[0].PValue)
	}
}

// score is the precision and recall of detection over trials: a change found
// within tolerance points of the true one counts as found; any other is false.
type score struct{ tp, fp, fn int }

func (s score) precision() float64 {
	if s.tp+s.fp == 0 {
		return 1
	}
	return float64(s.tp) / float64(s.tp+s.fp)
}

func (s score) recall() float64 { return float64(s.tp) / float64(s.tp+s.fn) }

func evaluate(rng *rand.Rand, trials, n, at int, shift, noise float64, set Settings) score {
	var sc score
	for range trials {
		x := series(rng, n, at, shift, noise)
		found := false
		for _, c := range Detect(x, set) {
			if !found && c.Index >= at-2 && c.Index <= at+2 {
				found = true
				sc.tp++
			} else {
				sc.fp++
			}
		}
		if !found {
			sc.fn++
		}
	}
	return sc
}

// table runs evaluate over the grid of shifts and noise levels and returns
// the Markdown table; check is called on each cell.
func table(rng *rand.Rand, trials, n, at int, set Settings, check func(shift, noise float64, sc score)) string {
	noises := []float64{0.005, 0.01, 0.02, 0.05}
	var b strings.Builder
	b.WriteString("| step \\ noise |")
	for _, nz := range noises {
		fmt.Fprintf(&b, " %.1f%% |", nz*100)
	}
	b.WriteString("\n|---|---|---|---|---|\n")
	for _, shift := range []float64{0.01, 0.05, 0.20} {
		fmt.Fprintf(&b, "| %.0f%% |", shift*100)
		for _, nz := range noises {
			sc := evaluate(rng, trials, n, at, shift, nz, set)
			p := "  — "
			if sc.tp+sc.fp > 0 {
				p = fmt.Sprintf("%.2f", sc.precision())
			}
			fmt.Fprintf(&b, " P %s R %.2f |", p, sc.recall())
			check(shift, nz, sc)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// flatRate is the share of flat series (no step) in which changes are found.
func flatRate(rng *rand.Rand, trials, n int, set Settings) float64 {
	found := 0
	for _, nz := range []float64{0.005, 0.01, 0.02, 0.05} {
		for range trials {
			if len(Detect(series(rng, n, 0, 0, nz), set)) > 0 {
				found++
			}
		}
	}
	return float64(found) / float64(4*trials)
}

// TestPrecisionRecall prints the table in docs/STORE.md: series of 60 runs with
// one step at run 40 (20 runs after it), 1%, 5% and 20% steps at noise 0.5% to
// 5% (Gaussian, relative), with the default settings (t-test, p = 0.001). A
// change found within 2 runs of the step is a hit, any other a false change.
// It fails when a 20% step at 0.5% or 1% noise is missed more than once in
// 100, or when flat series show changes in more than 2% of trials.
func TestPrecisionRecall(t *testing.T) {
	const trials, n, at = 100, 60, 40
	rng := rand.New(rand.NewPCG(11, 12))
	tab := table(rng, trials, n, at, Settings{}, func(shift, noise float64, sc score) {
		if shift == 0.20 && noise <= 0.01 && sc.recall() < 0.99 {
			t.Errorf("20%% step at %.1f%% noise: recall %.2f, want at least 0.99", noise*100, sc.recall())
		}
		if shift == 0.20 && noise <= 0.01 && sc.precision() < 0.95 {
			t.Errorf("20%% step at %.1f%% noise: precision %.2f, want at least 0.95", noise*100, sc.precision())
		}
	})
	rate := flatRate(rng, trials, n, Settings{})
	if rate > 0.02 {
		t.Errorf("false changes in %.1f%% of flat series, want at most 2%%", rate*100)
	}
	t.Logf("t-test, p <= 0.001: precision (P) and recall (R), %d series of %d runs each, step at run %d:\n%s\nflat series with a false change: %.1f%% of %d",
		trials, n, at, tab, rate*100, 4*trials)

	// The permutation test costs Permutations times more: fewer trials.
	perm := Settings{Method: EDivisive, Test: Permutation, MaxPValue: 0.01, Permutations: 199, Seed: 3}
	tab = table(rng, 10, n, at, perm, func(shift, noise float64, sc score) {
		if shift == 0.20 && noise == 0.005 && sc.recall() < 0.9 {
			t.Errorf("permutation test, 20%% step at 0.5%% noise: recall %.2f", sc.recall())
		}
	})
	rate = flatRate(rng, 10, n, perm)
	t.Logf("permutation test (199 permutations), p <= 0.01, 10 series each:\n%s\nflat series with a false change: %.1f%% of 40", tab, rate*100)
}
