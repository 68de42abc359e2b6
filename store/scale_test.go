package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// scalePlan is the synthetic fleet of the scale benchmarks: CLMETER_SCALE
// as DEVICESxRUNSxBENCHMARKS ("full" is 1000x100x50, 5 million results),
// else 48x20x50 (48,000), small enough for a shared machine.
func scalePlan(tb testing.TB) storetest.FleetPlan {
	tb.Helper()
	v := os.Getenv("CLMETER_SCALE")
	switch v {
	case "":
		v = "48x20x50"
	case "full":
		v = "1000x100x50"
	}
	parts := strings.Split(v, "x")
	var n [3]int
	for i := range n {
		if len(parts) != 3 {
			break
		}
		n[i], _ = strconv.Atoi(parts[i])
	}
	if n[0] < 1 || n[1] < 2 || n[2] < 1 {
		tb.Fatalf("CLMETER_SCALE=%q: want DEVICESxRUNSxBENCHMARKS (at least 1x2x1), e.g. 1000x100x50, or full", v)
	}
	smp, _ := strconv.Atoi(os.Getenv("CLMETER_SCALE_SAMPLES"))
	return storetest.FleetPlan{Devices: n[0], Runs: n[1], Benchmarks: n[2], Samples: smp}
}

// A scaleFixture is a store filled with a plan's fleet by bulkLoad.
type scaleFixture struct {
	once     sync.Once
	location string
	dir      string // a temporary folder to remove at the end
	err      error
}

// cleanupScale removes the SQLite fixture's temporary folder (TestMain).
func cleanupScale() {
	for _, fx := range scaleFixtures {
		if fx.dir != "" {
			os.RemoveAll(fx.dir)
		}
	}
}

var scaleFixtures = map[Dialect]*scaleFixture{SQLite: {}, Postgres: {}}

// scaleStore returns the location of a store holding scalePlan's fleet,
// built once per process (SQLite: kept at $CLMETER_SCALE_STORE when set,
// and reused from there).
func scaleStore(b *testing.B, d Dialect) (string, storetest.FleetPlan) {
	b.Helper()
	p := scalePlan(b)
	fx := scaleFixtures[d]
	fx.once.Do(func() {
		if d == Postgres {
			fx.location = storetest.PostgresURL(b)
		} else if fx.location = os.Getenv("CLMETER_SCALE_STORE"); fx.location != "" {
			if _, err := os.Stat(fx.location); err == nil {
				return
			}
		} else {
			fx.dir, fx.err = os.MkdirTemp("", "clmeter-scale-")
			if fx.err != nil {
				return
			}
			fx.location = filepath.Join(fx.dir, "results.db")
		}
		ctx := context.Background()
		st, err := Open(ctx, fx.location, Options{Create: true})
		if fx.err = err; err != nil {
			return
		}
		defer st.Close()
		start := time.Now()
		fx.err = bulkLoadPlan(ctx, st, p, 0, p.Runs)
		b.Logf("%s: %d results (%dx%dx%d) bulk-loaded in %v", d, p.Results(), p.Devices, p.Runs, p.Benchmarks,
			time.Since(start).Round(time.Millisecond))
	})
	if fx.err != nil {
		b.Fatal(fx.err)
	}
	return fx.location, p
}

// timeQuery runs query b.N times and reports its 95th percentile and what
// the last call returned (rows).
func timeQuery(b *testing.B, query func() (int, error)) {
	var times []time.Duration
	rows := 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		t0 := time.Now()
		n, err := query()
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		rows = n
	}
	b.ReportMetric(float64(rows), "rows")
	reportP95(b, times, cpu0)
}

// benchScaleFleet: what 'clmeter fleet RUN' reads of one fleet run (the
// middle one): its tasks (FleetTasks) and every result of it with its
// device key (fleetRunResults).
func benchScaleFleet(b *testing.B, d Dialect) {
	loc, p := scaleStore(b, d)
	timeQuery(b, scaleFleetQuery(openScale(b, loc), p))
}

// benchScaleHistory: 'clmeter history triad --device-key UUID' (or
// --device UUID: byDevice), the store's part: one benchmark name (its
// parameter sets) on one GPU, across its two drivers and every run.
func benchScaleHistory(b *testing.B, d Dialect, byDevice bool) {
	loc, p := scaleStore(b, d)
	timeQuery(b, scaleHistoryQuery(openScale(b, loc), p, byDevice))
}

// scaleFleetQuery reads the middle run of p's fleet as the fleet view
// (fleetview.Build) does, FleetTasks then FleetResults (every result of
// the run's latest attempts, samples included), and checks that it is
// whole.
func scaleFleetQuery(st *Store, p storetest.FleetPlan) func() (int, error) {
	run := p.RunID(p.Runs / 2)
	return func() (int, error) {
		tasks, err := st.FleetTasks(context.Background(), run)
		if err != nil || len(tasks) != p.Devices {
			return 0, fmt.Errorf("%d tasks of %d devices: %v", len(tasks), p.Devices, err)
		}
		res, err := st.FleetResults(context.Background(), tasks)
		if err == nil && len(res) != p.Devices*p.Benchmarks {
			err = fmt.Errorf("%d results, want %d", len(res), p.Devices*p.Benchmarks)
		}
		return len(res), err
	}
}

// scaleHistoryQuery reads the history of "triad" on one GPU of p's fleet,
// by its key's UUID as the fleet view's history commands do
// (--device-key), or by --device's grammar (byDevice), and checks that
// every run is there in its two drivers' series.
func scaleHistoryQuery(st *Store, p storetest.FleetPlan, byDevice bool) func() (int, error) {
	uuid := p.Device(min(5, p.Devices-1), 0).UUID
	f := Filter{Pattern: "triad", DeviceKey: uuid}
	if byDevice {
		f = Filter{Pattern: "triad", Device: uuid}
	}
	return func() (int, error) {
		h, err := st.History(context.Background(), f)
		n := 0
		for _, s := range h {
			n += len(s.Points)
		}
		if err == nil && (n == 0 || n%p.Runs != 0 || len(h) != 2*n/p.Runs) {
			err = fmt.Errorf("%d points in %d series, want a multiple of %d runs in two drivers' series", n, len(h), p.Runs)
		}
		return n, err
	}
}

func openScale(b *testing.B, loc string) *Store {
	st, err := Open(context.Background(), loc, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

func BenchmarkScaleFleetRunSQLite(b *testing.B)   { benchScaleFleet(b, SQLite) }
func BenchmarkScaleFleetRunPostgres(b *testing.B) { benchScaleFleet(b, Postgres) }
func BenchmarkScaleHistorySQLite(b *testing.B)    { benchScaleHistory(b, SQLite, false) }
func BenchmarkScaleHistoryPostgres(b *testing.B)  { benchScaleHistory(b, Postgres, false) }

func BenchmarkScaleHistoryDeviceSQLite(b *testing.B)   { benchScaleHistory(b, SQLite, true) }
func BenchmarkScaleHistoryDevicePostgres(b *testing.B) { benchScaleHistory(b, Postgres, true) }

// BenchmarkScaleAddPostgres: one more fleet run (every node's file) added
// through Add by 8 concurrent writers into the PostgreSQL fixture; reports
// results stored per second, and the CPU time the writers' process and the
// server took per result (on a shared machine, what its load inflates
// least).
func BenchmarkScaleAddPostgres(b *testing.B) {
	loc, p := scaleStore(b, Postgres)
	ctx := context.Background()
	st, err := Open(ctx, loc, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const writers = 8
	var elapsed, client, server time.Duration
	stored := 0
	for i := range b.N {
		b.StopTimer()
		files := make([]*results.File, p.Nodes())
		for n := range files {
			files[n] = p.File(p.Runs+i, n)
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		s0, err := pgServerCPU(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		if err := addConcurrently(ctx, st, files, writers); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(t0)
		client += cpuTime() - c0
		s1, err := pgServerCPU(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		server += s1 - s0
		stored += p.Devices * p.Benchmarks
	}
	b.ReportMetric(float64(stored)/elapsed.Seconds(), "results/s")
	b.ReportMetric(float64(client)/1e3/float64(stored), "client-cpu-µs/result")
	b.ReportMetric(float64(server)/1e3/float64(stored), "server-cpu-µs/result")
}

// addConcurrently adds files through Add from writers goroutines.
func addConcurrently(ctx context.Context, st *Store, files []*results.File, writers int) error {
	queue := make(chan *results.File, len(files))
	for _, f := range files {
		queue <- f
	}
	close(queue)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			for f := range queue {
				if _, err := st.Add(ctx, f, "bench", nil); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// TestScaleSmoke runs what the scale benchmarks run, once, on a fleet of
// 20 GPUs, 4 runs and 5 benchmarks, on SQLite and PostgreSQL: the bulk
// load, the fleet run's read, one GPU's history, and a fifth run added by 8
// concurrent writers, which the fleet view then reads whole.
func TestScaleSmoke(t *testing.T) {
	ctx := context.Background()
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			p := storetest.FleetPlan{Devices: 20, Runs: 4, Benchmarks: 5, Samples: 2}
			loc := filepath.Join(t.TempDir(), "r.db")
			if d == Postgres {
				loc = storetest.PostgresURL(t)
			}
			st, err := Open(ctx, loc, Options{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := bulkLoadPlan(ctx, st, p, 0, p.Runs); err != nil {
				t.Fatal(err)
			}
			for name, q := range map[string]func() (int, error){"fleet": scaleFleetQuery(st, p), "history": scaleHistoryQuery(st, p, false),
				"history --device": scaleHistoryQuery(st, p, true)} {
				if n, err := q(); err != nil {
					t.Errorf("%s: %v", name, err)
				} else {
					t.Logf("%s: %d rows", name, n)
				}
			}
			files := make([]*results.File, p.Nodes())
			for n := range files {
				files[n] = p.File(p.Runs, n)
			}
			if err := addConcurrently(ctx, st, files, 8); err != nil {
				t.Fatal(err)
			}
			p.Runs++
			tasks, err := st.FleetTasks(ctx, p.RunID(p.Runs-1))
			if err != nil {
				t.Fatal(err)
			}
			if res, err := st.FleetResults(ctx, tasks); err != nil || len(tasks) != p.Devices || len(res) != p.Devices*p.Benchmarks {
				t.Errorf("the run added by 8 writers: %d tasks, %d results, want %d and %d: %v", len(tasks), len(res), p.Devices,
					p.Devices*p.Benchmarks, err)
			}
			var total int
			st.db.QueryRow("SELECT COUNT(*) FROM results").Scan(&total)
			if total != p.Results() {
				t.Errorf("%d results stored, want %d", total, p.Results())
			}
		})
	}
}
