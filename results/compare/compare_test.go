package compare

import (
	"bytes"
	"encoding/json"
	"github.com/clmeter/clmeter/results"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func noisy(n int, base, rel float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, seed+1))
	x := make([]float64, n)
	for i := range x {
		x[i] = base * (1 + rel*(2*r.Float64()-1))
	}
	return x
}

func TestComparePair(t *testing.T) {
	tests := []struct {
		name    string
		old     []float64
		new     []float64
		verdict Verdict
		ratio   float64
	}{
		{"same", noisy(20, 1000, 0.05, 1), noisy(20, 1000, 0.05, 2), NoDifference, 1},
		{"10% slower", noisy(20, 1000, 0.02, 3), noisy(20, 1100, 0.02, 4), Slower, 1.1},
		{"halved", noisy(15, 2000, 0.05, 5), noisy(12, 1000, 0.05, 6), Faster, 0.5},
		{"too few to tell", []float64{100, 101}, []float64{200, 201}, NoDifference, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Samples(tt.old, tt.new, 0.05)
			if p.Verdict != tt.verdict {
				t.Errorf("verdict %q (p=%.4f), want %q", p.Verdict, p.P, tt.verdict)
			}
			if math.Abs(p.Ratio-tt.ratio) > 0.05*tt.ratio {
				t.Errorf("ratio %.3f, want about %.3f", p.Ratio, tt.ratio)
			}
			if !(p.RatioLow <= p.Ratio && p.Ratio <= p.RatioHigh) {
				t.Errorf("ratio %.3f outside its interval [%.3f, %.3f]", p.Ratio, p.RatioLow, p.RatioHigh)
			}
			if tt.verdict == NoDifference && tt.ratio == 1 && !(p.RatioLow < 1 && p.RatioHigh > 1) {
				t.Errorf("no difference but the interval [%.3f, %.3f] excludes 1", p.RatioLow, p.RatioHigh)
			}
			if tt.verdict != NoDifference && p.RatioLow <= 1 && p.RatioHigh >= 1 {
				t.Errorf("%s but the interval [%.3f, %.3f] holds 1", tt.verdict, p.RatioLow, p.RatioHigh)
			}
			if tt.name == "too few to tell" && len(p.Warnings) == 0 {
				t.Error("no warning with 2+2 samples")
			}
		})
	}
}

// slowed returns a copy of f with every sampled benchmark's times scaled by
// factor(name, params).
func slowed(f results.File, factor func(b *results.Benchmark) float64) results.File {
	c := f
	c.Benchmarks = nil
	for _, b := range f.Benchmarks {
		if b.Measurement != nil {
			m := *b.Measurement
			m.Samples = append(m.Samples[:0:0], m.Samples...)
			k := factor(&b)
			for i := range m.Samples {
				m.Samples[i].PerLaunch = time.Duration(float64(m.Samples[i].PerLaunch) * k)
			}
			b.Measurement = &m
		}
		c.Benchmarks = append(c.Benchmarks, b)
	}
	return c
}

func TestCompareFiles(t *testing.T) {
	srcs := readFixtures(t)
	old := srcs[0]
	nf := slowed(*old.File, func(b *results.Benchmark) float64 {
		if b.Params["size"] == "16Mi" {
			return 1.2
		}
		return 1
	})
	nf.Benchmarks = slices.DeleteFunc(nf.Benchmarks, func(b results.Benchmark) bool { return b.Name == "fma" }) // only in old
	nf.Benchmarks = append(nf.Benchmarks, srcs[1].File.Benchmarks[0])
	c := Files([]results.Source{old}, []results.Source{{Path: "new.json", File: &nf}}, Options{})
	if len(c.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(c.Pairs))
	}
	for _, p := range c.Pairs {
		want := NoDifference
		if strings.Contains(p.Key.Params, "16Mi") {
			want = Slower
		}
		if p.Verdict != want {
			t.Errorf("%s: %s (ratio %.3f p %.4f), want %s", p.Key, p.Verdict, p.Ratio, p.P, want)
		}
	}
	if len(c.OnlyOld) != 1 || c.OnlyOld[0].Name != "fma" || len(c.OnlyNew) != 1 || c.OnlyNew[0].Device != "NVIDIA H200" {
		t.Errorf("only old %v, only new %v", c.OnlyOld, c.OnlyNew)
	}
	if math.Abs(c.Geomean-math.Cbrt(1.2)) > 0.01 {
		t.Errorf("geomean %.4f, want %.4f", c.Geomean, math.Cbrt(1.2))
	}
	if r := c.Regressions(0.05); len(r) != 1 {
		t.Errorf("regressions over 5%%: %d, want 1", len(r))
	}
	if r := c.Regressions(0.25); len(r) != 0 {
		t.Errorf("regressions over 25%%: %d, want 0", len(r))
	}
	var buf bytes.Buffer
	if err := c.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", buf.Bytes())
	buf.Reset()
	if err := c.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.md", buf.Bytes())
	buf.Reset()
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var js ComparisonJSON
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil || len(js.Pairs) != 3 || js.NotSampled == nil {
		t.Errorf("json: %v %+v", err, js)
	}

	// Two devices compared with --ignore-device.
	c = Files([]results.Source{srcs[0]}, []results.Source{srcs[1]}, Options{IgnoreDevice: true})
	if len(c.Pairs) != 3 || c.Pairs[0].Verdict != Faster {
		t.Errorf("ignore device: %d pairs", len(c.Pairs))
	}
}

// TestCompareIgnoreName pairs two differently named benchmarks over the same
// parameters, as when comparing a naive and a tiled kernel.
func TestCompareIgnoreName(t *testing.T) {
	srcs := readFixtures(t)
	old := srcs[0]
	nf := slowed(*old.File, func(*results.Benchmark) float64 { return 1 })
	for i := range nf.Benchmarks {
		nf.Benchmarks[i].Name += "_tiled"
	}
	c := Files([]results.Source{old}, []results.Source{{Path: "new.json", File: &nf}}, Options{})
	if len(c.Pairs) != 0 {
		t.Fatalf("renamed benchmarks paired without IgnoreName: %d pairs", len(c.Pairs))
	}
	c = Files([]results.Source{old}, []results.Source{{Path: "new.json", File: &nf}}, Options{IgnoreName: true})
	if len(c.Pairs) == 0 || len(c.OnlyOld) != 0 && len(c.Pairs) < len(c.OnlyOld) {
		t.Fatalf("IgnoreName: %d pairs, only old %v", len(c.Pairs), c.OnlyOld)
	}
	for _, p := range c.Pairs {
		if p.Key.Name != "*" {
			t.Errorf("pair key %v keeps its name", p.Key)
		}
	}
}

// withDevice returns a copy of f whose benchmarks ran on d.
func withDevice(f results.File, d results.DeviceInfo) results.File {
	c := f
	c.Benchmarks = slices.Clone(f.Benchmarks)
	for i := range c.Benchmarks {
		c.Benchmarks[i].Device = d
	}
	return c
}

// TestCompareTwinGPUs compares runs on two identical GPUs (one name, two
// UUIDs), the second 20% slower in both files and listed under swapped
// indexes in the new one: each GPU is paired with itself (no difference),
// never pooled with its twin; a lone device still pairs by name with a
// device of another machine.
func TestCompareTwinGPUs(t *testing.T) {
	h200 := readFixtures(t)[1].File
	dev := h200.Benchmarks[0].Device
	a, b := dev, dev
	a.UUID, a.Index = "1a2b3c4d-0000-0000-0000-00000000000a", "0:0"
	b.UUID, b.Index = "5e6f7081-0000-0000-0000-00000000000b", "0:1"
	a.Key, _ = results.DeviceKey(a)
	b.Key, _ = results.DeviceKey(b)
	slow := func(*results.Benchmark) float64 { return 1.2 }
	oldA, oldB := withDevice(*h200, a), slowed(withDevice(*h200, b), slow)
	a.Index, b.Index = "0:1", "0:0" // CUDA_VISIBLE_DEVICES=1,0
	newA, newB := withDevice(*h200, a), slowed(withDevice(*h200, b), slow)
	c := Files([]results.Source{{Path: "a", File: &oldA}, {Path: "b", File: &oldB}},
		[]results.Source{{Path: "a2", File: &newA}, {Path: "b2", File: &newB}}, Options{})
	sampled := len(c.Pairs)
	if sampled == 0 || sampled%2 != 0 || len(c.OnlyOld)+len(c.OnlyNew) != 0 {
		t.Fatalf("%d pairs, only old %v, only new %v: want each GPU's benchmarks paired", sampled, c.OnlyOld, c.OnlyNew)
	}
	for _, p := range c.Pairs {
		if p.Verdict != NoDifference || !strings.Contains(p.Key.Device, "[uuid ") {
			t.Errorf("%s: %s (ratio %.3f), want no difference on a GPU told apart by its UUID", p.Key, p.Verdict, p.Ratio)
		}
	}
	// One device a side: by name, whatever the keys (another machine's GPU).
	c = Files([]results.Source{{Path: "a", File: &oldA}}, []results.Source{{Path: "b2", File: &newB}}, Options{})
	if len(c.Pairs) != sampled/2 || c.Pairs[0].Verdict != Slower || c.Pairs[0].Key.Device != dev.Name {
		t.Errorf("one device a side: %d pairs (want %d), first %+v", len(c.Pairs), sampled/2, c.Pairs[0])
	}
}
