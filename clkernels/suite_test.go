package clkernels

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// runSuite runs a suite at its smallest size with tiny settings and returns
// what it emitted.
func runSuite(t testing.TB, name string) []results.Benchmark {
	t.Helper()
	dev := device(t)
	s, ok := LookupSuite(name)
	if !ok {
		t.Fatalf("no suite %q", name)
	}
	var got []results.Benchmark
	err := s.Run(context.Background(), dev, Options{Settings: tiny, Small: true, Emit: func(b results.Benchmark) error {
		got = append(got, b)
		return nil
	}})
	if err != nil {
		t.Fatalf("suite %s: %v", name, err)
	}
	return got
}

func TestSuitesSmall(t *testing.T) {
	for _, name := range []string{"peaks", "streams", "launch", "transfers", "quick"} {
		t.Run(name, func(t *testing.T) {
			bs := runSuite(t, name)
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
				if b.Measurement == nil && len(b.Figures) == 0 {
					t.Errorf("%s: neither measurement nor figures", b.Name)
				}
				if m := b.Measurement; m != nil && m.Valid != nil && !*m.Valid {
					t.Errorf("%s: invalid: %s", b.Name, m.ValidationError)
				}
				checkIdentity(t, name, b)
			}
			if name == "quick" {
				last := bs[len(bs)-1]
				if last.Name != QuickSummaryName || len(last.Figures) < 3 {
					t.Errorf("quick did not end with its summary: %+v", last)
				}
				peaks := 0
				for _, b := range bs {
					if _, ok := IsPeakBenchmark(b); ok {
						peaks++
					}
				}
				if peaks < 2 {
					t.Errorf("quick has %d peak benchmarks, want bandwidth and fp32", peaks)
				}
			}
		})
	}
}

func TestSuiteCanceled(t *testing.T) {
	dev := device(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, _ := LookupSuite("launch")
	n := 0
	err := s.Run(ctx, dev, Options{Settings: tiny, Small: true, Emit: func(b results.Benchmark) error {
		n++
		cancel()
		return nil
	}})
	if err == nil || n != 1 {
		t.Fatalf("canceled suite: err %v after %d benchmarks, want an error after 1", err, n)
	}
}

// TestSuiteInterruptedMidSampling checks that a benchmark interrupted while
// it samples is not kept when it had fewer samples than its minimum, and is
// kept with its figures (and a warning) when it had reached it.
func TestSuiteInterruptedMidSampling(t *testing.T) {
	dev := device(t)
	s, _ := LookupSuite("launch")
	for _, tt := range []struct {
		name            string
		min, cancelAt   int
		figure          bool
		errSay, warnSay string
	}{
		{"before its minimum", 50, 3, false, "", ""},
		{"after its minimum", 3, 4, true, "", "interrupted after 4 samples (3 needed)"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		st := measure.Settings{MinSamples: tt.min, MaxNoise: 1e-9, MaxTime: 20 * time.Second, MinSampleTime: time.Millisecond, Warmup: measure.WarmupCount(1),
			Progress: func(p measure.Progress) {
				if p.Stage == "samples" && p.Samples >= tt.cancelAt {
					cancel()
				}
			}}
		var got []results.Benchmark
		err := s.Run(ctx, dev, Options{Settings: st, Emit: func(b results.Benchmark) error {
			got = append(got, b)
			return nil
		}})
		cancel()
		want := 0
		if tt.figure {
			want = 1
		}
		if err == nil || len(got) != want {
			t.Fatalf("%s: err %v after %d benchmarks, want an error after %d", tt.name, err, len(got), want)
		}
		if want == 0 {
			continue
		}
		b := got[0]
		if b.HasFigure() != tt.figure {
			t.Errorf("%s: figure %v, want %v (error %q, %d samples)", tt.name, b.HasFigure(), tt.figure, b.Error, len(b.Measurement.Samples))
		}
		if tt.errSay != "" && !strings.Contains(b.Error, tt.errSay) || tt.errSay == "" && b.Error != "" {
			t.Errorf("%s: error %q, want %q", tt.name, b.Error, tt.errSay)
		}
		if tt.warnSay != "" && !strings.Contains(strings.Join(b.Measurement.Warnings, ";"), tt.warnSay) {
			t.Errorf("%s: warnings %q lack %q", tt.name, b.Measurement.Warnings, tt.warnSay)
		}
	}
}

// TestLaunchLocalSize checks that the launch benchmarks race local size 1
// against the driver's choice, once a device, and record the one taken.
func TestLaunchLocalSize(t *testing.T) {
	bs := runSuite(t, "launch")
	taken := ""
	for _, b := range bs {
		l, _ := b.Extra["local_size"].(string)
		race, _ := b.Extra["local_size_race"].(string)
		if l != "1" && l != "auto" || !strings.Contains(race, "local size 1: ") || !strings.Contains(race, "the driver's choice: ") {
			t.Errorf("%s: local size %q, race %q", b.Name, l, race)
		}
		if taken != "" && l != taken {
			t.Errorf("%s: local size %q where another launch mode took %q", b.Name, l, taken)
		}
		taken = l
	}
}

func TestSuiteNames(t *testing.T) {
	names := strings.Join(SuiteNames(), " ")
	for _, want := range append([]string{"quick", "all"}, SuiteOrder...) {
		if _, ok := LookupSuite(want); !ok {
			t.Errorf("suite %q missing from %s", want, names)
		}
	}
}

func TestTransferSizes(t *testing.T) {
	dev := device(t)
	s := TransferSizes(dev, 0)
	if s[0] != 4<<10 || s[len(s)-1] > 256<<20 {
		t.Errorf("sizes %v", s)
	}
	if s := TransferSizes(dev, 1<<20); s[len(s)-1] != 1<<20 {
		t.Errorf("capped sizes %v", s)
	}
}

// BenchmarkQuickSuite runs the quick suite on the default device at its
// normal sizes and short settings, and reports its wall time.
func BenchmarkQuickSuite(b *testing.B) {
	dev := device(b)
	s, _ := LookupSuite("quick")
	settings := measure.Settings{MaxTime: time.Second, MinSamples: 5}
	for i := 0; i < b.N; i++ {
		start := time.Now()
		err := s.Run(context.Background(), dev, Options{Settings: settings, Emit: func(results.Benchmark) error { return nil }})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "wall-s/op")
	}
}

// checkIdentity checks that a suite's benchmark carries the typed identity
// the profile and the % PEAK read, with the fields its kind needs.
func checkIdentity(t *testing.T, suite string, b results.Benchmark) {
	t.Helper()
	id := b.Identity
	if id == nil || id.Suite != suite || id.Kind == "" {
		t.Errorf("%s: identity %+v", b.Name, id)
		return
	}
	if id.Best {
		return
	}
	var lacks bool
	switch id.Kind {
	case results.KindBandwidth, results.KindCacheBandwidth:
		lacks = id.Traffic == "" || (id.Pattern == "") == (id.Kernel == "") || id.Type == "" || id.WorkingSetBytes <= 0 || (id.Region != results.RegionMemory && id.Region != results.RegionCache)
	case results.KindImageBandwidth:
		lacks = id.Pattern == "" || id.WorkingSetBytes <= 0 || id.Region == ""
	case results.KindLocalBandwidth:
		lacks = id.Width == 0
	case results.KindCompute:
		lacks = id.Type == "" || id.Width == 0
	case results.KindLaunch:
		lacks = id.Mode == ""
	case results.KindTransfer:
		lacks = id.Memory == "" || id.Direction == "" || id.WorkingSetBytes <= 0
	}
	if lacks {
		t.Errorf("%s: identity %+v lacks a field of its kind", b.Name, id)
	}
}
