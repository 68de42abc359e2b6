package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

var cpu = results.DeviceInfo{Index: "0:0", Platform: "PoCL", Name: "pthread-cpu", DriverVersion: "3.1", GlobalCacheBytes: 32 << 20}

// bw is a global bandwidth benchmark of the suite moving bytes a launch at
// gbps, in region ("" : no region parameter, an older file).
func bw(name string, gbps float64, bytes int64, region string) results.Benchmark {
	b := results.Benchmark{Name: name, Kind: "suite:quick", Device: cpu, Figures: []results.Figure{},
		Measurement: &measure.Result{Samples: []measure.Sample{{PerLaunch: time.Millisecond, Launches: 1}},
			Summary:    measure.Summary{N: 1, Median: time.Millisecond},
			Throughput: &measure.Throughput{BytesPerLaunch: bytes, GBPerSecond: gbps}}}
	if region != "" {
		b.SetParam("region", region)
	}
	return b
}

// TestSuitePeakPercent checks the suite table's % PEAK: by the profile's
// rule, a bandwidth measured within the caches is a percentage of the cache
// bandwidth, marked, never of the memory's, so no memory row passes 100%;
// a benchmark that carries no figure has no throughput and no percentage.
func TestSuitePeakPercent(t *testing.T) {
	interrupted := bw("peaks/compute/float/16", 0, 0, "")
	interrupted.SetParam("type", "float")
	interrupted.Measurement.Throughput = &measure.Throughput{OpsPerLaunch: 1 << 30, OpsUnit: "FLOP", GOpsPerSecond: 64.9}
	interrupted.Error = "context canceled" // an older file: its samples are still there
	compute := bw("peaks/compute/float/4", 0, 0, "")
	compute.SetParam("type", "float")
	compute.Measurement.Throughput = &measure.Throughput{OpsPerLaunch: 1 << 30, OpsUnit: "FLOP", GOpsPerSecond: 40}
	bs := []results.Benchmark{
		bw("peaks/bandwidth/chunk/float16", 50, 512<<20, "memory"),
		bw("peaks/bandwidth/stride/float4", 100, 512<<20, "cache"), // the suite says cache, whatever the size
		bw("streams/copy/float", 76, 64<<20, ""),                   // under 4x the L3: the cache's
		bw("streams/triad/float", 40, 192<<20, ""),                 // beyond it
		compute, interrupted,
	}
	var out bytes.Buffer
	writeSuiteReport(&out, bs, 200)
	table := out.String()
	want := map[string]string{
		"peaks/bandwidth/chunk/float16": "100%",
		"peaks/bandwidth/stride/float4": "100% (cache)",
		"streams/copy/float":            "76% (cache)",
		"streams/triad/float":           "80%",
		"peaks/compute/float/4":         "100%",
	}
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if w, ok := want[f[0]]; ok {
			if !strings.Contains(line+"  ", "  "+w+"  ") {
				t.Errorf("%s: want %% PEAK %s:\n%s", f[0], w, line)
			}
			delete(want, f[0])
		}
		if f[0] == "peaks/compute/float/16" && (strings.Contains(line, "GFLOP/s") || strings.Contains(line, "%")) {
			t.Errorf("an interrupted benchmark shows a figure: %s", line)
		}
	}
	for name := range want {
		t.Errorf("no row of %s:\n%s", name, table)
	}
	if !strings.Contains(table, "context canceled") {
		t.Errorf("the interrupted benchmark's error is not among the notes:\n%s", table)
	}
}

// TestConcludeInTable checks that the suite table shows no figure of a
// benchmark interrupted before its minimum of samples (results.Conclude).
func TestConcludeInTable(t *testing.T) {
	b := bw("streams/copy/float", 99, 512<<20, "memory")
	b.Measurement.StopReason = measure.StopCanceled
	b.Measurement.Settings.MinSamples = 5
	b.Conclude(context.Canceled)
	var out bytes.Buffer
	writeSuiteReport(&out, []results.Benchmark{b}, 200)
	if s := out.String(); strings.Contains(s, "GB/s") || strings.Contains(s, "99") || !strings.Contains(s, "interrupted after 1 of the 5 samples") {
		t.Errorf("interrupted row:\n%s", s)
	}
}
