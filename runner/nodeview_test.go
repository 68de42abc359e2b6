package runner

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// viewFile is a file of one benchmark on n devices of one model, device
// slow taking 20% longer (-1: none).
func viewFile(n, slow int) *results.File {
	f := &results.File{}
	for d := range n {
		per := make([]time.Duration, 15)
		samples := make([]measure.Sample, len(per))
		for i := range per {
			m := 100 * time.Microsecond
			if d == slow {
				m = 120 * time.Microsecond
			}
			per[i] = m + time.Duration(i%5)*100*time.Nanosecond
			samples[i] = measure.Sample{PerLaunch: per[i], Launches: 1}
		}
		s := measure.Summarize(per, measure.StatsSettings{})
		dev := results.DeviceInfo{Name: "GPU X", Index: "0:" + string(rune('0'+d)), Key: "uuid-" + string(rune('a'+d))}
		f.Benchmarks = append(f.Benchmarks, results.Benchmark{Name: "streams/copy/float", Device: dev,
			Measurement: &measure.Result{Samples: samples, Summary: s, Throughput: measure.ComputeThroughput(measure.SetupInfo{BytesPerLaunch: 1 << 24}, s)}})
	}
	return f
}

func TestWriteNodeView(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	var out, errs bytes.Buffer
	o := SuiteOptions{Suite: "quick", OutputOptions: OutputOptions{Format: "table"}, FailOnOutlier: true}
	err := writeNodeView(&out, &errs, o, viewFile(3, 1))
	if fail.KindOf(err) != fail.Outlier || !strings.Contains(err.Error(), "slow: d1") {
		t.Fatalf("error %v (kind %v), want an outlier naming d1", err, fail.KindOf(err))
	}
	if !strings.Contains(out.String(), "== node view: quick on 3 devices") || !strings.Contains(out.String(), "d1 = GPU X index 0:1") {
		t.Errorf("table:\n%s", out.String())
	}
	o.FailOnOutlier = false
	if err := writeNodeView(&out, &errs, o, viewFile(3, 1)); err != nil {
		t.Errorf("without --fail-on-outlier: %v", err)
	}
	out.Reset()
	o.Format, o.FailOnOutlier = "json", true
	if err := writeNodeView(&out, &errs, o, viewFile(3, -1)); err != nil || out.Len() != 0 || !strings.Contains(errs.String(), "node view: no outlier") {
		t.Errorf("json: %v, stdout %q, stderr %q: want the summary on stderr only", err, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	o.Format = "table"
	if err := writeNodeView(&out, &errs, o, viewFile(1, 0)); err != nil || out.Len() != 0 || !strings.Contains(errs.String(), "no peer") {
		t.Errorf("one device: %v, stdout %q, stderr %q", err, out.String(), errs.String())
	}
	o.OutlierTolerance = -0.05
	if err := checkNodeView(o); fail.KindOf(err) != fail.Usage || !strings.Contains(err.Error(), "--outlier-tolerance") {
		t.Errorf("negative tolerance: %v", err)
	}
}
