package dashboard

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// The 100,000-result store of the store package's benchmarks: 2,000 uploads
// of a 50-benchmark suite over five device/driver rows.
var big struct {
	once sync.Once
	dir  string
	st   *store.Store
	err  error
}

func bigServer(b *testing.B) *Server {
	b.Helper()
	big.once.Do(func() {
		ctx := context.Background()
		// CLMETER_BENCH_STORE keeps the fixture at that path across runs.
		if p := os.Getenv("CLMETER_BENCH_STORE"); p != "" {
			if _, err := os.Stat(p); err == nil {
				big.st, big.err = store.Open(ctx, p, store.Options{ReadOnly: true})
				return
			}
		}
		if big.dir, big.err = os.MkdirTemp("", "clmeter-dashboard-bench-"); big.err != nil {
			return
		}
		path := filepath.Join(big.dir, "results.db")
		st, err := store.Open(ctx, path, store.Options{Create: true})
		if err != nil {
			big.err = err
			return
		}
		big.err = storetest.FillPlan{Uploads: 2000, PerUpload: 50}.Files(func(i int, f *results.File, labels map[string]string) error {
			_, err := st.Add(ctx, f, "fixture", labels)
			return err
		})
		st.Close()
		if big.err == nil {
			big.st, big.err = store.Open(ctx, path, store.Options{ReadOnly: true})
		}
	})
	if big.err != nil {
		b.Fatal(big.err)
	}
	return New(big.st, 0)
}

func benchPage(b *testing.B, url string) {
	srv := bigServer(b)
	var times []time.Duration
	size := 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", url, nil)
		req.Host = "localhost"
		t0 := time.Now()
		srv.ServeHTTP(rec, req)
		times = append(times, time.Since(t0))
		if rec.Code != 200 {
			b.Fatalf("%s: %d %s", url, rec.Code, rec.Body.String())
		}
		size = rec.Body.Len()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[min(len(times)-1, int(float64(len(times))*0.95))])/1e6, "p95-ms")
	b.ReportMetric(float64(size)/1024, "KiB")
	b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Server time of each page over 100,000 stored results. Target: under 300 ms.
func BenchmarkIndexPage(b *testing.B) { benchPage(b, "/") }

// BenchmarkBenchPage: one benchmark's page: 2,000 runs in 5 series, each
// with its change points and chart.
func BenchmarkBenchPage(b *testing.B) { benchPage(b, "/bench?name=triad/large") }

// BenchmarkBenchPageFourParams: a name at four parameter sets: 8,000 runs in
// 20 series.
func BenchmarkBenchPageFourParams(b *testing.B) { benchPage(b, "/bench?name=triad") }

func BenchmarkComparePage(b *testing.B) { benchPage(b, "/compare?a=3&b=4") }

func BenchmarkRunPage(b *testing.B) { benchPage(b, "/run/54321") }

func TestMain(m *testing.M) {
	code := m.Run()
	if big.st != nil {
		big.st.Close()
	}
	if big.dir != "" {
		os.RemoveAll(big.dir)
	}
	os.Exit(code)
}
