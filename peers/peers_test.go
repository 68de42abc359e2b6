package peers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// gpu is device i of a model, told apart by its key.
func gpu(model string, i int) results.DeviceInfo {
	return results.DeviceInfo{Name: model, Index: fmt.Sprintf("0:%d", i), PCI: fmt.Sprintf("0000:%02x:00.0", 0x19+i),
		UUID: fmt.Sprintf("%08x-0000-0000-0000-000000000000", i), Key: fmt.Sprintf("uuid:%s:%d", model, i)}
}

// sampled is a benchmark on dev whose 21 samples spread evenly over
// median x (1 ± spread), summarised by measure as a run would be; bytes
// per launch make it a bandwidth (higher is better), none a time.
func sampled(dev results.DeviceInfo, name string, median time.Duration, spread float64, bytes int64) results.Benchmark {
	const n = 21
	per := make([]time.Duration, n)
	samples := make([]measure.Sample, n)
	for i := range per {
		k := float64((i*8)%n)/float64(n-1)*2 - 1 // -1..1, not in order
		per[i] = time.Duration(float64(median) * (1 + spread*k))
		samples[i] = measure.Sample{PerLaunch: per[i], Launches: 1}
	}
	s := measure.Summarize(per, measure.StatsSettings{})
	m := &measure.Result{Samples: samples, Summary: s, Throughput: measure.ComputeThroughput(measure.SetupInfo{BytesPerLaunch: bytes}, s)}
	return results.Benchmark{Name: name, Kind: "suite:quick", Device: dev, Measurement: m}
}

// slower is median scaled so that a bandwidth is frac slower (frac 0.1: 10%
// less throughput).
func slower(median time.Duration, frac float64) time.Duration {
	return time.Duration(float64(median) / (1 - frac))
}

func flagged(v *View) []string {
	var out []string
	for _, o := range v.Outliers {
		out = append(out, o.Device+" "+o.Benchmark)
	}
	return out
}

func mustBuild(t *testing.T, bs []results.Benchmark) *View {
	t.Helper()
	v, err := Build(bs, DefaultTolerance)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOneSlowOfFourFlagged(t *testing.T) {
	const bw = "peaks/bandwidth/stride/float4"
	var bs []results.Benchmark
	for i := range 4 {
		m := 100 * time.Microsecond
		if i == 2 {
			m = slower(m, 0.10)
		}
		bs = append(bs, sampled(gpu("NVIDIA H200", i), bw, m, 0.005, 1<<24), sampled(gpu("NVIDIA H200", i), "launch/dispatch", 5*time.Microsecond, 0.005, 0))
	}
	v := mustBuild(t, bs)
	if got := strings.Join(flagged(v), ";"); got != "d2 "+bw {
		t.Fatalf("flagged %q, want d2 on %s only", got, bw)
	}
	if o := v.Outliers[0]; o.Worse < 0.099 || o.Worse > 0.101 || o.Peers != 3 || o.Key != "uuid:NVIDIA H200:2" {
		t.Errorf("outlier %+v: want 10%% worse than 3 peers, key of device 2", o)
	}
	if s := v.Summary(); !strings.Contains(s, "slow: d2 (NVIDIA H200 0000:1b:00.0) on "+bw+" (10.0% worse); worse than the median of the peers of its model by more than 5.0%") {
		t.Errorf("summary %q does not name d2 and the benchmark", s)
	}
	if v.Err() == nil || !strings.Contains(v.Err().Error(), "d2") {
		t.Errorf("Err() = %v, want the outliers", v.Err())
	}
}

func TestTwoOfAModel(t *testing.T) {
	// A node of two: the slower one is flagged, never the faster.
	bs := []results.Benchmark{
		sampled(gpu("H", 0), "streams/copy/float", 100*time.Microsecond, 0.005, 1<<24),
		sampled(gpu("H", 1), "streams/copy/float", slower(100*time.Microsecond, 0.10), 0.005, 1<<24),
	}
	v := mustBuild(t, bs)
	if got := strings.Join(flagged(v), ";"); got != "d1 streams/copy/float" {
		t.Fatalf("flagged %q, want d1 only", got)
	}
	if c := v.Rows[0].Cells[0]; c.Worse > -0.1 || c.Flagged {
		t.Errorf("the faster device: %+v", c)
	}
}

func TestWithinToleranceOrNoise(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frac   float64
		spread float64
		note   string
	}{
		{"2% slow inside noise", 0.02, 0.03, ""},
		{"8% slow, its interval reaches the median", 0.08, 0.3, "within its noise"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var bs []results.Benchmark
			for i := range 4 {
				m, spread := 100*time.Microsecond, 0.005
				if i == 1 {
					m, spread = slower(m, tc.frac), tc.spread
				}
				bs = append(bs, sampled(gpu("H", i), "peaks/bandwidth/chunk/float4", m, spread, 1<<24))
			}
			v := mustBuild(t, bs)
			if len(v.Outliers) != 0 {
				t.Fatalf("flagged %v", flagged(v))
			}
			c := v.Rows[0].Cells[1]
			if c.Worse < tc.frac-0.005 || c.Worse > tc.frac+0.005 || !strings.Contains(c.Note, tc.note) {
				t.Errorf("cell %+v: want %.0f%% worse, note %q", c, 100*tc.frac, tc.note)
			}
			if !strings.HasPrefix(v.Summary(), "no outlier:") {
				t.Errorf("summary %q", v.Summary())
			}
		})
	}
}

func TestModelsNeverCompared(t *testing.T) {
	const b = "peaks/compute/float/16"
	bs := []results.Benchmark{
		sampled(gpu("Big", 0), b, 100*time.Microsecond, 0.005, 1<<24),
		sampled(gpu("Big", 1), b, 100*time.Microsecond, 0.005, 1<<24),
		sampled(gpu("Small", 0), b, 200*time.Microsecond, 0.005, 1<<24),
		sampled(gpu("Small", 1), b, 200*time.Microsecond, 0.005, 1<<24),
		sampled(gpu("Lone", 0), b, 900*time.Microsecond, 0.005, 1<<24),
	}
	v := mustBuild(t, bs)
	if len(v.Outliers) != 0 {
		t.Fatalf("flagged %v: models compared with each other", flagged(v))
	}
	for d, c := range v.Rows[0].Cells {
		want := 1
		if v.Devices[d].Model == "Lone" {
			want = 0
		}
		if c.Peers != want || c.Worse != 0 && want == 1 {
			t.Errorf("%s (%s): peers %d worse %g, want %d peer(s) at 0", v.Devices[d].Label, v.Devices[d].Model, c.Peers, c.Worse, want)
		}
	}
	if notes := strings.Join(v.Notes, "\n"); !strings.Contains(notes, "d4 (Lone) is the only device of its model") {
		t.Errorf("notes %q do not say why the lone device is not judged", notes)
	}
	lone := mustBuild(t, bs[4:])
	if s := lone.Summary(); !strings.HasPrefix(s, "no outlier can be judged") {
		t.Errorf("one device: summary %q", s)
	}
}

func TestLowerIsBetter(t *testing.T) {
	var bs []results.Benchmark
	for i := range 4 {
		m := 10 * time.Microsecond
		switch i {
		case 0:
			m = 11 * time.Microsecond // 10% longer: worse
		case 3:
			m = 9 * time.Microsecond // 10% shorter: better
		}
		bs = append(bs, sampled(gpu("H", i), "launch/round-trip", m, 0.005, 0))
	}
	v := mustBuild(t, bs)
	if v.Rows[0].HigherIsBetter || v.Rows[0].Unit != "ns" {
		t.Fatalf("row %+v: want a time", v.Rows[0])
	}
	if got := strings.Join(flagged(v), ";"); got != "d0 launch/round-trip" {
		t.Fatalf("flagged %q, want d0 (the longer time) only", got)
	}
}

func TestToleranceRefused(t *testing.T) {
	bs := []results.Benchmark{sampled(gpu("H", 0), "x", time.Microsecond, 0.01, 0)}
	for _, tol := range []float64{0, -0.05, 1, 5} {
		_, err := Build(bs, tol)
		if err == nil || !strings.Contains(err.Error(), "5%") {
			t.Errorf("tolerance %g: error %v, want a refusal naming the fix", tol, err)
		}
	}
}

func TestFallbackKeys(t *testing.T) {
	// Two PoCL devices of one name without a recorded key: told apart by
	// their index, and said so.
	a := results.DeviceInfo{Name: "pthread-cpu", Platform: "PoCL", Index: "0:0"}
	b := a
	b.Index = "0:1"
	bs := []results.Benchmark{sampled(a, "streams/dot/float", time.Millisecond, 0.005, 1<<20), sampled(b, "streams/dot/float", slower(time.Millisecond, 0.2), 0.005, 1<<20)}
	if Keys(bs) != 2 {
		t.Fatalf("Keys = %d, want 2", Keys(bs))
	}
	v := mustBuild(t, bs)
	if len(v.Devices) != 2 || !v.Devices[0].KeyFallback || len(v.Outliers) != 1 {
		t.Fatalf("devices %+v outliers %v", v.Devices, v.Outliers)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "d0, d1: no UUID or PCI address recorded") {
		t.Errorf("notes %q", v.Notes)
	}
}

func TestFailedAndUnsampled(t *testing.T) {
	bad := sampled(gpu("H", 1), "streams/copy/float", 50*time.Microsecond, 0.005, 1<<24)
	bad.Error = "kernel timed out"
	bs := []results.Benchmark{
		sampled(gpu("H", 0), "streams/copy/float", 100*time.Microsecond, 0.005, 1<<24), bad,
		sampled(gpu("H", 2), "streams/copy/float", 100*time.Microsecond, 0.005, 1<<24),
		{Name: "quick/summary", Device: gpu("H", 0)},
		{Name: "streams/dot/float", Device: gpu("H", 0), Error: "build failed"},
		sampled(gpu("H", 1), "streams/dot/float", 100*time.Microsecond, 0.005, 1<<24),
	}
	v := mustBuild(t, bs)
	if len(v.Rows) != 2 || len(v.Outliers) != 0 {
		t.Fatalf("rows %d outliers %v", len(v.Rows), v.Outliers)
	}
	if c := v.Rows[0].Cells[1]; c.Value != 0 || !strings.Contains(c.Note, "timed out") {
		t.Errorf("failed cell %+v", c)
	}
	if c := v.Rows[0].Cells[0]; c.Peers != 1 {
		t.Errorf("a failed device counted as a peer: %+v", c)
	}
	if r := v.Rows[1]; r.Unit != "GB/s" || !r.HigherIsBetter || r.Cells[0] == nil || r.Cells[0].Note != "failed: build failed" || r.Cells[1].Value == 0 {
		t.Errorf("a row whose first record failed before a sample: %+v, %+v", r, r.Cells[0])
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "1 record(s) without samples") {
		t.Errorf("notes %q", v.Notes)
	}
}
