package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

var cpu = results.DeviceInfo{Index: "0:0", Platform: "PoCL", Name: "pthread-cpu", DriverVersion: "3.1", GlobalCacheBytes: 32 << 20}

// bw is a benchmark of identity id moving bytes a launch at gbps; its name
// is only a row's label.
func bw(name string, id results.Identity, gbps float64, bytes int64) results.Benchmark {
	return results.Benchmark{Name: name, Kind: "suite:quick", Identity: &id, Device: cpu, Figures: []results.Figure{},
		Measurement: &measure.Result{Samples: []measure.Sample{{PerLaunch: time.Millisecond, Launches: 1}},
			Summary:    measure.Summary{N: 1, Median: time.Millisecond},
			Throughput: &measure.Throughput{BytesPerLaunch: bytes, GBPerSecond: gbps}}}
}

// global is the identity of a global bandwidth of traffic in region (""
// : the suite did not say, an older file).
func global(traffic, region string) results.Identity {
	return results.Identity{Suite: "quick", Kind: results.KindBandwidth, Traffic: traffic, Region: region}
}

// ops is b with a compute throughput of gops.
func ops(b results.Benchmark, gops float64) results.Benchmark {
	b.Measurement.Throughput = &measure.Throughput{OpsPerLaunch: 1 << 30, OpsUnit: "FLOP", GOpsPerSecond: gops}
	return b
}

// TestSuitePeakPercent checks the suite table's % PEAK from the benchmarks'
// typed identities (their names are arbitrary labels here): by the one
// ceiling rule, a bandwidth measured within the caches (global or image) is
// a percentage of the caches' peak, marked, never of the memory's, so no
// memory row passes 100%; transfers and launches have none; a benchmark
// that carries no figure has no throughput and no percentage.
func TestSuitePeakPercent(t *testing.T) {
	compute := results.Identity{Kind: results.KindCompute, Type: "float", Width: 4}
	interrupted := ops(bw("row-interrupted", compute, 0, 0), 64.9)
	interrupted.Error = "context canceled" // an older file: its samples are still there
	image := func(region string) results.Identity {
		return results.Identity{Kind: results.KindImageBandwidth, Pattern: "linear", Region: region}
	}
	rows := []struct {
		b    results.Benchmark
		want string
	}{
		{bw("row-memory", global(results.TrafficReadOnly, "memory"), 50, 512<<20), "100%"},
		{bw("row-cache-said", global(results.TrafficReadOnly, "cache"), 100, 512<<20), "100% (cache)"}, // the suite says cache, whatever the size
		{bw("row-cache-sized", global(results.TrafficCopy, ""), 76, 64<<20), "76% (cache)"},            // under 4x the L3: the cache's
		{bw("row-beyond", global(results.TrafficCopy, ""), 40, 192<<20), "80%"},                        // beyond it
		{bw("row-l2", global(results.TrafficCopy, "l2"), 50, 1<<30), "50% (cache)"},                    // any region but memory is a cache
		{ops(bw("row-compute", compute, 0, 0), 40), "100%"},
		{ops(bw("row-compute-half", compute, 0, 0), 20), "50%"},
		{bw("row-image-memory", image("memory"), 2, 512<<20), "100%"},
		{bw("row-image-memory-half", image("memory"), 1, 512<<20), "50%"},
		{bw("row-image-cache", image("cache"), 8, 1<<20), "100% (cache)"},
		{bw("row-local", results.Identity{Kind: results.KindLocalBandwidth, Width: 4}, 300, 0), "100%"},
		{bw("row-pinned", results.Identity{Kind: results.KindTransfer, Memory: "pinned", Direction: "write"}, 20, 1<<20), ""},
		{bw("row-launch", results.Identity{Kind: results.KindLaunch, Mode: "throughput"}, 0, 0), ""},
		{bw("row-none", results.Identity{}, 20, 1<<30), ""},
		{interrupted, ""},
	}
	var bs []results.Benchmark
	for _, r := range rows {
		bs = append(bs, r.b)
	}
	peaks := devicePeaks(bs)
	for _, r := range rows {
		if got := peakPercent(r.b, peaks); got != r.want {
			t.Errorf("%s: %% PEAK %q, want %q", r.b.Name, got, r.want)
		}
	}
	var out bytes.Buffer
	writeSuiteReport(&out, bs, 200)
	table := out.String()
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "row-interrupted") && (strings.Contains(line, "GFLOP/s") || strings.Contains(line, "%")) {
			t.Errorf("an interrupted benchmark shows a figure: %s", line)
		}
	}
	if !strings.Contains(table, "context canceled") {
		t.Errorf("the interrupted benchmark's error is not among the notes:\n%s", table)
	}
}

// TestConcludeInTable checks that the suite table shows no figure of a
// benchmark interrupted before its minimum of samples (results.Conclude).
func TestConcludeInTable(t *testing.T) {
	b := bw("streams/copy/float", global(results.TrafficCopy, "memory"), 99, 512<<20)
	b.Measurement.StopReason = measure.StopCanceled
	b.Measurement.Settings.MinSamples = 5
	b.Conclude(context.Canceled)
	var out bytes.Buffer
	writeSuiteReport(&out, []results.Benchmark{b}, 200)
	if s := out.String(); strings.Contains(s, "GB/s") || strings.Contains(s, "99") || !strings.Contains(s, "interrupted after 1 of the 5 samples") {
		t.Errorf("interrupted row:\n%s", s)
	}
}

// TestLegacySuitePeakPercent checks the % PEAK of result files written
// before benchmarks had a typed identity (the reader derives it) against
// testdata/legacy-peak.txt, what the suite table gave when it read the
// names itself: the same everywhere but the image bandwidths measured within
// the caches, which the one ceiling rule now marks "(cache)".
func TestLegacySuitePeakPercent(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "legacy-peak.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*results.File{}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("golden line %q", line)
		}
		if files[f[0]] == nil {
			r, err := results.Read(f[0])
			if err != nil {
				t.Fatal(err)
			}
			files[f[0]] = r
			checked = 0
		}
		bs := files[f[0]].Benchmarks
		if checked >= len(bs) || bs[checked].Name != f[1] {
			t.Fatalf("%s: benchmark %d is not %s", f[0], checked, f[1])
		}
		if got := strconv.Quote(peakPercent(bs[checked], devicePeaks(bs))); got != f[2] {
			t.Errorf("%s %s: %% PEAK %s, was %s", f[0], f[1], got, f[2])
		}
		checked++
	}
}
