package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// The 100,000-result store: 2,000 uploads of a 50-benchmark suite over five
// device/driver rows, built once per process into a temporary folder (or
// kept at $CLMETER_BENCH_STORE).
var big struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func bigStore(b *testing.B) string {
	b.Helper()
	big.once.Do(func() {
		// CLMETER_BENCH_STORE keeps the fixture at that path across runs.
		if p := os.Getenv("CLMETER_BENCH_STORE"); p != "" {
			big.path = p
			if _, err := os.Stat(p); err == nil {
				return
			}
		} else {
			big.dir, big.err = os.MkdirTemp("", "clmeter-store-bench-")
			if big.err != nil {
				return
			}
			big.path = filepath.Join(big.dir, "results.db")
		}
		ctx := context.Background()
		st, err := Open(ctx, big.path, Options{Create: true})
		if err != nil {
			big.err = err
			return
		}
		defer st.Close()
		start := time.Now()
		big.err = storetest.FillPlan{Uploads: 2000, PerUpload: 50}.Files(func(i int, f *results.File, labels map[string]string) error {
			_, err := st.Add(ctx, f, "fixture", labels)
			return err
		})
		b.Logf("100,000-result fixture built in %v", time.Since(start).Round(time.Millisecond))
	})
	if big.err != nil {
		b.Fatal(big.err)
	}
	return big.path
}

// reportP95 reports the 95th percentile of the iterations' times, and the
// process's CPU time per iteration since cpu0 (what a loaded machine does not
// inflate as much as wall time).
func reportP95(b *testing.B, times []time.Duration, cpu0 time.Duration) {
	slices.Sort(times)
	p95 := times[min(len(times)-1, int(float64(len(times))*0.95))]
	b.ReportMetric(float64(p95)/1e6, "p95-ms")
	b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(len(times)), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchHistory(b *testing.B, f Filter) {
	path := bigStore(b)
	st, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var times []time.Duration
	points, series := 0, 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		t0 := time.Now()
		h, err := st.History(context.Background(), f)
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		points, series = 0, len(h)
		for _, s := range h {
			points += len(s.Points)
		}
	}
	b.ReportMetric(float64(points), "points")
	b.ReportMetric(float64(series), "series")
	reportP95(b, times, cpu0)
}

// BenchmarkHistoryOneBenchmark: 'clmeter history triad/large', one benchmark
// (2,000 runs: five device/driver series of 400) out of 100,000 stored
// results. Target: p95 under 50 ms on SQLite.
func BenchmarkHistoryOneBenchmark(b *testing.B) { benchHistory(b, Filter{Pattern: "triad/large"}) }

// BenchmarkHistoryOneName: 'clmeter history triad', a name measured at four
// parameter sets (8,000 runs in 20 series).
func BenchmarkHistoryOneName(b *testing.B) { benchHistory(b, Filter{Pattern: "triad"}) }

// BenchmarkAddSuiteFile: 'clmeter store add' of a 1,000-benchmark suite file
// (20 samples each), read from disk, into a store that already holds results.
// Target: under 1 s.
func BenchmarkAddSuiteFile(b *testing.B) {
	dir := b.TempDir()
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(dir, "r.db"), Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	specs := storetest.Suite(1000)
	st.Add(ctx, storetest.File(specs, storetest.Options{Device: storetest.Devices[2], Samples: 20, Seed: 999}), "warm", nil)
	var times []time.Duration
	var cpuAdd time.Duration
	for i := range b.N {
		b.StopTimer()
		path := filepath.Join(dir, "suite.json")
		if err := results.WriteFile(path, storetest.File(specs, storetest.Options{Device: storetest.Devices[2], Samples: 20, Seed: uint64(i)})); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		a, err := st.AddPaths(ctx, []string{path}, map[string]string{"run": "bench"})
		if err != nil || a[0].Duplicate {
			b.Fatal(err, a)
		}
		times = append(times, time.Since(t0))
		cpuAdd += cpuTime() - c0
	}
	reportP95(b, times, cpuTime()-cpuAdd)
}
