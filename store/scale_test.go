package store

import (
	"context"
	"database/sql"
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
	err      error
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
			dir, err := os.MkdirTemp("", "clmeter-scale-")
			if fx.err = err; err != nil {
				return
			}
			fx.location = filepath.Join(dir, "results.db")
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
	st := openScale(b, loc)
	run := p.RunID(p.Runs / 2)
	timeQuery(b, func() (int, error) {
		tasks, err := st.FleetTasks(context.Background(), run)
		if err != nil || len(tasks) != p.Devices {
			return 0, fmt.Errorf("%d tasks of %d devices: %v", len(tasks), p.Devices, err)
		}
		rows, err := fleetRunResults(context.Background(), st, run)
		if err == nil && rows != p.Devices*p.Benchmarks {
			err = fmt.Errorf("%d results, want %d", rows, p.Devices*p.Benchmarks)
		}
		return rows, err
	})
}

// benchScaleHistory: 'clmeter history triad --device UUID', the store's
// part: one benchmark name (its parameter sets) on one GPU, across its two
// drivers and every run.
func benchScaleHistory(b *testing.B, d Dialect) {
	loc, p := scaleStore(b, d)
	st := openScale(b, loc)
	uuid := p.Device(5, 0).UUID
	timeQuery(b, func() (int, error) {
		h, err := st.History(context.Background(), Filter{Pattern: "triad", Device: uuid})
		n := 0
		for _, s := range h {
			n += len(s.Points)
		}
		if err == nil && (n == 0 || n%p.Runs != 0) {
			err = fmt.Errorf("%d points in %d series, want a multiple of %d runs", n, len(h), p.Runs)
		}
		return n, err
	})
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
func BenchmarkScaleHistorySQLite(b *testing.B)    { benchScaleHistory(b, SQLite) }
func BenchmarkScaleHistoryPostgres(b *testing.B)  { benchScaleHistory(b, Postgres) }

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
		run := p.Runs + i
		files := make(chan *results.File, p.Nodes())
		for n := range p.Nodes() {
			files <- p.File(run, n)
		}
		close(files)
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		s0, err := pgServerCPU(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for range writers {
			wg.Go(func() {
				for f := range files {
					if _, err := st.Add(ctx, f, "bench", nil); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed += time.Since(t0)
		client += cpuTime() - c0
		s1, err := pgServerCPU(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		server += s1 - s0
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
		stored += p.Devices * p.Benchmarks
	}
	b.ReportMetric(float64(stored)/elapsed.Seconds(), "results/s")
	b.ReportMetric(float64(client)/1e3/float64(stored), "client-cpu-µs/result")
	b.ReportMetric(float64(server)/1e3/float64(stored), "server-cpu-µs/result")
}

// fleetRunResults reads what the fleet view compares: every result of the
// uploads of fleet run run, with its device key, and returns how many.
func fleetRunResults(ctx context.Context, st *Store, run string) (int, error) {
	rows, err := st.db.QueryContext(ctx, st.q(`SELECT r.upload_id, r.device_key, r.device_id, r.name, r.params, r.ok,
		r.median_ns, r.ci_low_ns, r.ci_high_ns FROM results r
		WHERE r.upload_id IN (SELECT upload_id FROM fleet_tasks WHERE run = ?)`), run)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var up, dev int64
		var key, name, params string
		var ok int
		var med, lo, hi sql.NullInt64
		if err := rows.Scan(&up, &key, &dev, &name, &params, &ok, &med, &lo, &hi); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
