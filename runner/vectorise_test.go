package runner

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
)

// TestVerdictSaysVectorised runs examples/vectorise's two kernels (eight
// FMA chains a work-item, in a loop and written out) on PoCL, against a
// stored profile whose compute ceiling puts both far under their roof, and
// checks that run's verdict says the driver left the first scalar and
// vectorised the second, from the code PoCL compiled.
func TestVerdictSaysVectorised(t *testing.T) {
	dev := devtest.Device(t)
	if !strings.Contains(dev.Platform.Name, "Portable Computing Language") || dev.Describe().Type != "CPU" {
		t.Skipf("%s is not PoCL's CPU device", dev.Info.Name)
	}
	if testing.Short() {
		t.Skip("builds and runs two kernels")
	}
	dir := t.TempDir()
	info := dev.Describe()
	c := func(v float64, unit string) *profile.Ceiling {
		return &profile.Ceiling{Value: v, Unit: unit, Origin: profile.Origin{From: "test"}, Pattern: results.TrafficCopy}
	}
	p := &profile.Profile{Format: profile.FormatVersion, Key: profile.KeyOf(info), Device: info, Updated: time.Now(),
		Bandwidth: c(1e6, "GB/s"), Compute: map[string]*profile.Ceiling{"float": c(1e4, "GFLOP/s")},
		Launch: &profile.Latency{Value: time.Nanosecond}, PinnedToDevice: c(1, "GB/s")}
	if _, err := (profile.Folder{Dir: dir}).Save(p); err != nil {
		t.Fatal(err)
	}
	s := measure.DefaultSettings()
	s.MinSamples, s.Samples, s.MinSampleTime, s.MaxTime = 1, 2, time.Millisecond, time.Second
	for _, tt := range []struct{ kernel, say string }{
		{"chains", "the driver did not vectorise it across work-items"},
		{"flat", "the driver vectorised it across work-items"},
	} {
		out := filepath.Join(t.TempDir(), tt.kernel+".json")
		var stdout, stderr bytes.Buffer
		o := RunOptions{Target: filepath.Join("..", "examples", "vectorise", tt.kernel+".cl"),
			OutputOptions: OutputOptions{Format: "table", Output: out}, SessionOptions: SessionOptions{Settings: s, Device: info.Index}, ProfileUse: ProfileUse{ProfileDir: dir}}
		if err := Run(context.Background(), o, &stdout, &stderr); err != nil {
			t.Fatalf("%s: %v\n%s", tt.kernel, err, stderr.String())
		}
		f, err := results.Read(out)
		if err != nil || len(f.Benchmarks) != 1 || f.Benchmarks[0].Roofline == nil {
			t.Fatalf("%s: %v %+v", tt.kernel, err, f)
		}
		r := f.Benchmarks[0].Roofline
		all := strings.Join(r.Evidence, "\n")
		if r.Verdict != profile.ComputeBound || !strings.Contains(all, tt.say) {
			t.Errorf("%s: %s; evidence lacks %q:\n%s", tt.kernel, r.Verdict, tt.say, all)
		}
		t.Logf("%s: %s", tt.kernel, r.Evidence[len(r.Evidence)-1])
	}
}
