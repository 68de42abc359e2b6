package profile

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// device is the test device, or skips t (devtest.Device).
func device(t *testing.T) *runtime.Device { return devtest.Device(t) }

var tiny = measure.Settings{Samples: 3, MinSampleTime: time.Millisecond, Warmup: measure.WarmupCount(1), MaxTime: time.Second}

// smallBandwidth is the bandwidth figure of a profile measured at the small
// sizes: the memory ceiling on a device whose last-level cache is under a
// quarter of those sizes, else the cache bandwidth (never a memory ceiling).
func smallBandwidth(t *testing.T, dev *runtime.Device, p *Profile) *Ceiling {
	t.Helper()
	if c := dev.Describe().GlobalCacheBytes; c >= 1<<20 {
		if p.Bandwidth != nil {
			t.Errorf("a bandwidth over %d-byte buffers, within a %d-byte cache, became the memory ceiling: %+v", 1<<20, c, p.Bandwidth)
		}
		return p.CacheBandwidth
	}
	return p.Bandwidth
}

// The short profile measures every part on a real device, and LoadOrMeasure
// stores it once and loads it after.
func TestShortProfileOnDevice(t *testing.T) {
	dev := device(t)
	st := Folder{Dir: t.TempDir()}
	var names []string
	o := MeasureOptions{Settings: tiny, Small: true, Progress: func(n string) { names = append(names, n) }}
	p, note, err := LoadOrMeasure(context.Background(), st, dev, true, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "measured a short one") {
		t.Errorf("note %q", note)
	}
	bw := smallBandwidth(t, dev, p)
	if bw == nil || p.Compute["float"] == nil || p.LaunchLatency() <= 0 || p.LocalBandwidth == nil || p.PinnedToDevice == nil || p.PinnedToHost == nil || !p.Short() {
		t.Fatalf("short profile incomplete: %+v (ran %v)", p, names)
	}
	if bw.Pattern == "" || bw.Value <= 0 || p.Compute["float"].Value <= 0 || bw.Source != ShortSource {
		t.Errorf("bandwidth %+v compute %+v", bw, p.Compute["float"])
	}
	q, note, err := LoadOrMeasure(context.Background(), st, dev, true, o)
	if err != nil || !strings.HasPrefix(note, "device profile: short profile") || smallBandwidth(t, dev, q).Value < bw.Value {
		t.Errorf("second load: %q, %v", note, err)
	}
	// --no-profile on a device without one.
	p, note, err = LoadOrMeasure(context.Background(), Folder{Dir: t.TempDir()}, dev, false, o)
	if p != nil || err != nil || !strings.Contains(note, "--no-profile") {
		t.Errorf("no profile: %v %q %v", p, note, err)
	}
}

// Update merges a suite's benchmarks into the stored profile; what is still
// missing is measured as steps of their own (MissingSteps), never the
// suite's, and merged in (Fill).
func TestUpdateFromSuite(t *testing.T) {
	dev := device(t)
	st := Folder{Dir: t.TempDir()}
	s, _ := clkernels.LookupSuite("streams")
	var got []string
	var benches = collect(t, s, dev)
	for _, b := range benches {
		got = append(got, b.Name)
	}
	p, path, _, err := Update(st, dev, benches, "clmeter suite streams")
	if err != nil || p == nil || path == "" {
		t.Fatalf("Update: %v %v", p, err)
	}
	o := MeasureOptions{Settings: tiny, Small: true}
	steps, parts, err := MissingSteps(context.Background(), dev, p, o)
	if err != nil || !strings.Contains(strings.Join(parts, ","), "compute,launch,pinned") {
		t.Fatalf("after streams the profile lacks %q (%v), want at least compute, launch and pinned", parts, err)
	}
	for _, st := range steps {
		if st.Base.Kind != "profile" || st.Base.Identity == nil || st.Base.Identity.Suite != "profile" {
			t.Errorf("missing figure %s is measured as %q of suite %+v, want a profile step of its own", st.Base.Name, st.Base.Kind, st.Base.Identity)
		}
	}
	short, err := RunShort(context.Background(), dev, steps, o)
	if err != nil || len(short) != len(steps) {
		t.Fatalf("RunShort: %d of %d steps, %v", len(short), len(steps), err)
	}
	if p, path, err = Fill(st, dev, p, short); err != nil || path == "" {
		t.Fatalf("Fill: %v", err)
	}
	bw := smallBandwidth(t, dev, p)
	if bw == nil || !strings.HasPrefix(bw.From, "streams/") && !strings.HasPrefix(bw.From, "peaks/") {
		t.Fatalf("bandwidth %+v", bw)
	}
	// The streams' best by the profile's rule (Ceiling.Beats: short of the
	// plateau, of one pattern, the larger working set wins whatever the
	// values, so dot/double's 75.9 GB/s beat dot/float's 82.8 once here).
	// Nothing the streams measured may beat what was kept, and what was kept
	// is theirs unless the short profile's beat it.
	streams := FromBenchmarks(dev.Describe(), benches, "clmeter suite streams", time.Now())
	if streams == nil {
		t.Fatal("the streams gave no figure")
	}
	best := smallBandwidth(t, dev, streams)
	if best == nil {
		t.Fatal("the streams gave no bandwidth figure")
	}
	if best.Beats(bw) || (bw.From != best.From && bw.Source != ShortSource) {
		t.Errorf("bandwidth %+v is not the best of the streams (%+v) and the short profile", bw, best)
	}
	if p.Compute["float"] == nil || p.LaunchLatency() <= 0 || !strings.Contains(strings.Join(p.Sources(), ","), ShortSource) {
		t.Errorf("profile after streams: %+v (ran %v)", p, got)
	}
}

func TestKernelResourcesOnDevice(t *testing.T) {
	dev := device(t)
	src, _ := clkernels.Source("matmul.cl")
	r, err := KernelResources(dev, src, "-DTILE=8", "matmul_tiled")
	if err != nil {
		t.Fatal(err)
	}
	if r.WorkGroupSizeLimit <= 0 || r.PreferredMultiple <= 0 {
		t.Errorf("work-group info %+v", r)
	}
	// PoCL 5 reports 0 for a kernel's own __local arrays (PoCL 3: the
	// tiles); a zero must then be said to be the driver's.
	if r.LocalMemBytes < 2*8*8*4 && !(r.LocalMemBytes == 0 && strings.Contains(r.Note, "does not count them")) {
		t.Errorf("local memory %d, want at least the two 8x8 float tiles (512 B), or a note that the driver reports none: %+v", r.LocalMemBytes, r)
	}
	if !IsNVIDIA(dev) && (r.Registers != nil || r.Note == "") {
		t.Errorf("registers on a non-NVIDIA device: %+v", r)
	}
	if _, err := KernelResources(dev, src, "", "nope"); err == nil {
		t.Error("a missing kernel gave resources")
	}
}

// collect runs a suite with tiny settings and small sizes and returns its benchmarks.
func collect(t *testing.T, s clkernels.Suite, dev *runtime.Device) []results.Benchmark {
	t.Helper()
	var out []results.Benchmark
	err := s.Run(context.Background(), dev, clkernels.Options{Settings: tiny, Small: true, Emit: func(b results.Benchmark) error {
		out = append(out, b)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// LoadOrMeasure measures short the parts a stored profile lacks (here the
// memory bandwidth and pinned transfers a launch-only profile has not) and
// keeps the figures it has.
func TestLoadOrMeasureFillsMissing(t *testing.T) {
	dev := device(t)
	st := Folder{Dir: t.TempDir()}
	d := dev.Describe()
	stored := &Profile{Key: KeyOf(d), Device: d, Compute: map[string]*Ceiling{"float": {Value: 1e9, Unit: "GFLOP/s", Origin: Origin{From: "peaks/compute/float/4", Source: "clmeter suite peaks"}}},
		Launch: &Latency{Value: time.Nanosecond, Origin: Origin{From: "launch/throughput", Source: "clmeter suite launch"}}}
	if _, err := st.Save(stored); err != nil {
		t.Fatal(err)
	}
	p, note, err := LoadOrMeasure(context.Background(), st, dev, true, MeasureOptions{Settings: tiny, Small: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "it lacked bandwidth, pinned: measured short") {
		t.Errorf("note %q", note)
	}
	if p.Compute["float"].Value != 1e9 || p.LaunchLatency() != time.Nanosecond || smallBandwidth(t, dev, p) == nil || p.PinnedToDevice == nil {
		t.Errorf("filled profile %+v", p)
	}
	if q, err := st.Load(p.Key); err != nil || q.PinnedToDevice == nil {
		t.Errorf("the filled profile was not stored: %v", err)
	}
	// Without measuring, the stored profile is returned as it is.
	if q, note, err := LoadOrMeasure(context.Background(), st, dev, false, MeasureOptions{}); err != nil || q == nil || !strings.HasPrefix(note, "device profile: ") {
		t.Errorf("no measuring: %v %q %v", q, note, err)
	}
}

func TestLocalDecl(t *testing.T) {
	for src, want := range map[string]bool{
		"\t__local float As[TILE][TILE];":            true,
		"  local int tmp[64];":                       true,
		"__kernel void f(__local float *scratch) {}": false,
		"// no local arrays here":                    false,
	} {
		if got := localDecl.MatchString(src); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
