package history

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// A scenario is one planted series: its scale at each run and its samples'
// noise (storetest's: the relative spread of each run's 10 samples).
type scenario struct {
	name  string
	scale func(i int) float64
	noise float64
}

// plant stores runs runs of every scenario, one result file a day holding
// one benchmark per scenario, and returns the analysed histories by name.
func plant(t *testing.T, seed uint64, runs int, scs []scenario, o Options) map[string]Series {
	t.Helper()
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for i := range runs {
		var f *results.File
		for k, sc := range scs {
			g := storetest.File([]storetest.Spec{{Name: sc.name, Median: 50 * time.Microsecond}}, storetest.Options{
				Device: storetest.Devices[2], Created: day0.AddDate(0, 0, i), Scale: sc.scale(i), Noise: sc.noise, Seed: seed*1e6 + uint64(k*1000+i)})
			if f == nil {
				f = g
			} else {
				f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
			}
		}
		if _, err := s.Add(ctx, f, fmt.Sprintf("run%d.json", i), map[string]string{"commit": fmt.Sprintf("%040d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	series, err := s.History(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Series{}
	for _, h := range Analyze(series, o) {
		out[h.Benchmark] = h
	}
	if len(out) != len(scs) {
		t.Fatalf("%d series, want %d", len(out), len(scs))
	}
	return out
}

func step(at int, size float64) func(int) float64 {
	return func(i int) float64 {
		if i >= at {
			return 1 + size
		}
		return 1
	}
}

// TestPlantedSteps: 40 daily runs through the store (storetest's generator,
// five seeds, the step at a different run for each). Every step of 2% or
// more at a noise of 1% or less is found within one run of where it was
// planted, with no other change or drift beyond 2% (what --ci would report
// at --threshold 2%); unchanged series show no finding at all; a series
// with four steps (+5%, +20%, -10%, +1% at 0.5% noise) shows all four; a
// drifting series shows one drift and no step; a two-run blip is one
// outlier; a weekly pattern is not a regression. The recall of steps at
// larger noise is logged.
func TestPlantedSteps(t *testing.T) {
	const runs = 40
	steps := []float64{0.01, 0.02, 0.05, 0.10, 0.20, -0.05}
	noises := []float64{0.005, 0.01, 0.02, 0.05}
	hits := map[string]int{}
	var falses []string
	for seed := range uint64(5) {
		at := 8 + 5*int(seed)
		var scs []scenario
		for _, nz := range noises {
			for _, sz := range steps {
				scs = append(scs, scenario{fmt.Sprintf("step %+.0f%% @ %.1f%%", sz*100, nz*100), step(at, sz), nz})
			}
			scs = append(scs, scenario{fmt.Sprintf("flat @ %.1f%%", nz*100), func(int) float64 { return 1 }, nz})
		}
		four := func(i int) float64 {
			v := 1.0
			for _, s := range []struct {
				at   int
				size float64
			}{{10, 0.05}, {20, 0.20}, {28, -0.10}, {34, 0.01}} {
				if i >= s.at {
					v *= 1 + s.size
				}
			}
			return v
		}
		scs = append(scs,
			scenario{"four steps", four, 0.005},
			scenario{"drift", func(i int) float64 { return 1 + 0.003*float64(i) }, 0.005},
			scenario{"late drift", func(i int) float64 { return 1 + 0.005*math.Max(0, float64(i-20)) }, 0.005},
			scenario{"blip", func(i int) float64 {
				if i == at+3 || i == at+4 {
					return 1.3
				}
				return 1
			}, 0.005},
			scenario{"weekly", func(i int) float64 { return 1 + 0.03*math.Sin(2*math.Pi*float64(i)/7) }, 0.005},
		)
		hs := plant(t, seed, runs, scs, Options{Threshold: DefaultThreshold})
		for _, nz := range noises {
			for _, sz := range steps {
				name := fmt.Sprintf("step %+.0f%% @ %.1f%%", sz*100, nz*100)
				h := hs[name]
				found, large := false, 0
				for _, c := range h.Changes {
					if !found && abs(c.Index-at) <= 1 {
						found = true
						if got := c.Size; math.Abs(got-sz) > math.Max(0.3*math.Abs(sz), 2*nz) {
							t.Errorf("seed %d %s: size %+.3f", seed, name, got)
						}
					} else {
						falses = append(falses, fmt.Sprintf("seed %d %s: change at %d, %+.1f%%", seed, name, c.Index, c.Size*100))
						if math.Abs(c.Size) > 0.02 {
							large++
						}
					}
				}
				if found {
					hits[name]++
				}
				for _, d := range h.Drifts {
					falses = append(falses, fmt.Sprintf("seed %d %s: drift from %d, %+.1f%%", seed, name, d.Start, d.Size*100))
					if math.Abs(d.Size) > 0.02 {
						large++
					}
				}
				if math.Abs(sz) >= 0.02 && nz <= 0.01 {
					if !found || large > 0 {
						t.Errorf("seed %d %s at run %d: changes %+v drifts %+v", seed, name, at, indices(h), h.Drifts)
					}
				}
			}
			if h := hs[fmt.Sprintf("flat @ %.1f%%", nz*100)]; len(h.Changes)+len(h.Drifts)+len(h.Outliers) != 0 {
				t.Errorf("seed %d flat at %.1f%% noise: changes %v drifts %+v outliers %+v", seed, nz*100, indices(h), h.Drifts, h.Outliers)
			}
		}
		if h := hs["four steps"]; !equalInts(indices(h), []int{10, 20, 28, 34}) && !near(indices(h), []int{10, 20, 28, 34}) {
			t.Errorf("seed %d four steps: changes at %v, want 10 20 28 34", seed, indices(h))
		}
		if h := hs["drift"]; len(h.Drifts) != 1 || len(h.Changes) != 0 || h.Drifts[0].Start != 0 || h.Drifts[0].N != runs ||
			math.Abs(h.Drifts[0].Slope/h.Drifts[0].Level-0.003) > 0.001 || h.Drifts[0].Verdict != "regression" || !h.Drifts[0].Newest && h.Drifts[0].Crossed == nil {
			t.Errorf("seed %d drift: changes %v drifts %+v", seed, indices(h), h.Drifts)
		}
		if h := hs["late drift"]; len(h.Drifts) != 1 || abs(h.Drifts[0].Start-20) > 2 || len(h.Changes) > 1 {
			t.Errorf("seed %d late drift: changes %v drifts %+v", seed, indices(h), h.Drifts)
		}
		if h := hs["blip"]; len(h.Changes) != 0 || len(h.Drifts) != 0 || len(h.Outliers) != 1 || h.Outliers[0].Index != at+3 || h.Outliers[0].N != 2 {
			t.Errorf("seed %d blip at %d: changes %v drifts %+v outliers %+v", seed, at+3, indices(h), h.Drifts, h.Outliers)
		}
		if h := hs["weekly"]; len(h.Changes)+len(h.Drifts) != 0 {
			t.Errorf("seed %d weekly pattern: changes %v drifts %+v", seed, indices(h), h.Drifts)
		}
	}
	var b strings.Builder
	b.WriteString("| step \\ noise |")
	for _, nz := range noises {
		fmt.Fprintf(&b, " %.1f%% |", nz*100)
	}
	b.WriteString("\n|---|---|---|---|---|\n")
	for _, sz := range steps {
		fmt.Fprintf(&b, "| %+.0f%% |", sz*100)
		for _, nz := range noises {
			fmt.Fprintf(&b, " %d/5 |", hits[fmt.Sprintf("step %+.0f%% @ %.1f%%", sz*100, nz*100)])
		}
		b.WriteString("\n")
	}
	t.Logf("steps found within one run, of 5 seeds (40 runs, step at run 8..28):\n%s\nother findings in the stepped series: %d %v", b.String(), len(falses), falses)
}

func indices(h Series) []int {
	out := []int{}
	for _, c := range h.Changes {
		out = append(out, c.Index)
	}
	return out
}

func equalInts(a, b []int) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// near: the same number of changes, each within one run.
func near(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if abs(a[i]-b[i]) > 1 {
			return false
		}
	}
	return true
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
