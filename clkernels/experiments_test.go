package clkernels

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

func figure(b results.Benchmark, name string) (results.Figure, bool) {
	for _, f := range b.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return results.Figure{}, false
}

func byName(bs []results.Benchmark) map[string]results.Benchmark {
	m := map[string]results.Benchmark{}
	for _, b := range bs {
		m[b.Name] = b
	}
	return m
}

func checkClean(t *testing.T, name string, bs []results.Benchmark) {
	t.Helper()
	if len(bs) == 0 {
		t.Fatal("no benchmarks")
	}
	for _, b := range bs {
		if b.Error != "" {
			t.Errorf("%s: %s", b.Name, b.Error)
		}
		if b.Kind != "suite:"+name {
			t.Errorf("%s: kind %q", b.Name, b.Kind)
		}
		if m := b.Measurement; m != nil && (m.Valid == nil || !*m.Valid) {
			t.Errorf("%s: not validated: %v %s", b.Name, m.Valid, m.ValidationError)
		}
	}
}

func TestExperimentsRegistered(t *testing.T) {
	for _, n := range ExperimentSuites {
		s, ok := LookupSuite(n)
		if !ok || s.Description == "" || !slices.Contains(SuiteOrder, n) {
			t.Errorf("experiment %q: registered %v, in SuiteOrder %v", n, ok, slices.Contains(SuiteOrder, n))
		}
	}
}

func TestColdStartSizes(t *testing.T) {
	s := ColdStartSizes(false)
	if len(s) != 10 || s[0] != (MatmulSize{300, 500, 400}) || s[9] != (MatmulSize{1200, 1400, 1300}) {
		t.Errorf("sizes %v", s)
	}
	if s := ColdStartSizes(true); s[0] != (MatmulSize{30, 50, 40}) {
		t.Errorf("small sizes %v", s)
	}
}

func TestCheckMatmulCatchesErrors(t *testing.T) {
	s := MatmulSize{7, 5, 3}
	a, b := matmulInputs(s)
	c := make([]byte, 4*s.M*s.N)
	af, bf := floats32(a), floats32(b)
	for i := 0; i < s.M; i++ {
		for j := 0; j < s.N; j++ {
			var acc float32
			for k := 0; k < s.W; k++ {
				acc += af[i*s.W+k] * bf[k*s.N+j]
			}
			binary.LittleEndian.PutUint32(c[4*(i*s.N+j):], math.Float32bits(acc))
		}
	}
	if err := checkMatmul(a, b, c, s); err != nil {
		t.Fatalf("correct product rejected: %v", err)
	}
	binary.LittleEndian.PutUint32(c[4*12:], math.Float32bits(42))
	if err := checkMatmul(a, b, c, s); err == nil || !strings.Contains(err.Error(), "1 of 35") {
		t.Errorf("corrupted product: %v", err)
	}
}

func TestReductionPasses(t *testing.T) {
	if p := ReductionPasses(16<<20, 512); !slices.Equal(p, []int64{16 << 20, 32768, 64}) {
		t.Errorf("passes %v", p)
	}
	if p := ReductionPasses(1000, 512); !slices.Equal(p, []int64{1000, 2}) {
		t.Errorf("passes %v", p)
	}
	if p := ReductionPasses(7, 512); !slices.Equal(p, []int64{7}) {
		t.Errorf("passes %v", p)
	}
}

func TestSuiteMatmulSmall(t *testing.T) {
	bs := runSuite(t, SuiteMatmul)
	checkClean(t, SuiteMatmul, bs)
	m := byName(bs)
	for _, n := range []string{"matmul/naive", "matmul/tiled"} {
		if b, ok := m[n]; !ok || b.Measurement == nil || b.Params["size"] != "128x128x128" {
			t.Errorf("%s: %+v", n, b)
		}
	}
	if f, ok := figure(m["matmul/speedup"], "tiled speedup"); !ok || f.Value <= 0 {
		t.Errorf("speedup %+v", m["matmul/speedup"])
	}
}

func TestSuiteReductionSmall(t *testing.T) {
	bs := runSuite(t, SuiteReduction)
	checkClean(t, SuiteReduction, bs)
	m := byName(bs)
	for _, v := range ReductionVariants {
		b := m["reduction/"+v]
		if b.Measurement == nil || len(b.Measurement.Samples) == 0 || b.Measurement.Summary.Median <= 0 {
			t.Errorf("%s: %+v", v, b.Measurement)
		}
	}
	sp := m[ReductionSpeedup]
	if f, ok := figure(sp, "non-divergent speedup"); !ok || f.Value <= 0 || sp.Params["passes"] == "" {
		t.Errorf("speedup %+v", sp)
	}
	if f, ok := figure(sp, "sequential speedup over divergent"); !ok || f.Value <= 0 {
		t.Errorf("sequential speedup %+v", sp)
	}
	if e, _ := sp.Extra[ExtraExplanation].(string); !strings.Contains(e, "Sequential addressing") {
		t.Errorf("explanation %q", e)
	}
}

func TestReductionExplanationFollowsFigures(t *testing.T) {
	ms := time.Millisecond
	if e := ReductionExplanation(false, 100*ms, 120*ms, 60*ms); !strings.Contains(e, "32-way") || !strings.Contains(e, "bank-conflict explanation predicts") {
		t.Errorf("GPU, non-divergent slower: %q", e)
	}
	if e := ReductionExplanation(false, 120*ms, 100*ms, 110*ms); !strings.Contains(e, "as the article says") || !strings.Contains(e, "not the fastest") {
		t.Errorf("GPU, article holds: %q", e)
	}
	if e := ReductionExplanation(true, 100*ms, 120*ms, 60*ms); strings.Contains(e, "32-way") || !strings.Contains(e, "no warps") {
		t.Errorf("CPU: %q", e)
	}
}

func TestReductionRejectsWrongSum(t *testing.T) {
	dev := device(t)
	rb, err := NewReductionBenchmark(dev, ReductionNonDivergent, 3000, 64)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := rb.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	defer rb.Teardown()
	if len(rb.passes) != 2 || rb.TileUsed != 64 {
		t.Errorf("%d passes, tile %d", len(rb.passes), rb.TileUsed)
	}
	if err := rb.Validate(ctx); err != nil {
		t.Fatalf("valid: %v", err)
	}
	rb.want += 1
	if err := rb.Validate(ctx); err == nil {
		t.Error("a wrong reference passed")
	}
}

func TestSuiteFirstTouchSmall(t *testing.T) {
	bs := runSuite(t, SuiteFirstTouch)
	checkClean(t, SuiteFirstTouch, bs)
	m := byName(bs)
	for _, c := range FirstTouchCases {
		for _, where := range []string{"device", "host"} {
			b, ok := m[FirstTouchCaseName(where, c.Name)]
			if !ok {
				t.Errorf("no %s %s", where, c.Name)
				continue
			}
			for i := 1; i <= FirstTouchRuns; i++ {
				if f, ok := figure(b, FirstTouchRunFigure(i, false)); !ok || f.Value <= 0 {
					t.Errorf("%s: run %d %+v", b.Name, i, f)
				}
			}
			if _, ok := figure(b, FirstTouchCost); !ok {
				t.Errorf("%s: no first-touch cost", b.Name)
			}
		}
	}
}

func TestSuiteColdStartSmallInProcess(t *testing.T) {
	bs := runSuite(t, SuiteColdStart) // no Executable: the fresh-process part is skipped
	checkClean(t, SuiteColdStart, bs)
	if len(bs) != 10 {
		t.Fatalf("%d benchmarks, want 10", len(bs))
	}
	for i, b := range bs {
		s := ColdStartSizes(true)[i]
		if b.Name != ColdStartWarm+s.String() {
			t.Errorf("benchmark %d is %s", i, b.Name)
		}
		if m := b.Measurement; m == nil || m.Phases == nil || m.Phases.Total.Median <= 0 || m.Phases.Compute.Median <= 0 {
			t.Errorf("%s: no phases", b.Name)
		}
	}
}

func TestColdStartChildInProcess(t *testing.T) {
	device(t)
	child, err := RunColdStartChild(context.Background(), os.Getenv(runtime.DeviceEnv), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(child.Runs) != 10 || child.Device == "" {
		t.Fatalf("%d runs on %q", len(child.Runs), child.Device)
	}
	first := child.Runs[0]
	if first.Enumeration <= 0 || first.Context <= 0 || first.Build <= 0 || first.Total < first.Build+first.Launch {
		t.Errorf("first run %+v", first)
	}
	for i, r := range child.Runs {
		if r.Invalid != "" {
			t.Errorf("run %d: %s", i, r.Invalid)
		}
		if i > 0 && (r.Build != 0 || r.Enumeration != 0 || r.Total <= 0) {
			t.Errorf("run %d repeats start-up: %+v", i, r)
		}
	}
}
