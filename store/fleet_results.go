package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A FleetResult is one stored benchmark of a fleet run with the task (the
// upload and device) that made it.
type FleetResult struct {
	Task      FleetTask
	Benchmark results.Benchmark
}

// FleetResults returns the benchmarks that tasks' latest attempts made
// (tasks is FleetTasks' answer for one run), in upload and file order,
// as the files had them, samples included. A
// superseded attempt's benchmarks are not returned: a retried task counts
// once.
func (s *Store) FleetResults(ctx context.Context, tasks []FleetTask) ([]FleetResult, error) {
	type slot struct {
		upload int64
		key    string
	}
	latest := map[slot]FleetTask{}
	run := ""
	for _, t := range tasks {
		run = t.Run
		if t.Latest {
			latest[slot{t.UploadID, t.DeviceKey}] = t
		}
	}
	if len(latest) == 0 {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT r.id, r.upload_id, b.body FROM results r JOIN bodies b ON b.result_id = r.id
		WHERE r.upload_id IN (SELECT upload_id FROM fleet_tasks WHERE run = ?) ORDER BY r.upload_id, r.seq`), run)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var out []FleetResult
	hosts := map[int64]string{}
	for _, t := range latest {
		hosts[t.UploadID] = t.Host
	}
	ids := map[int64]int{}
	for rows.Next() {
		var id, upload int64
		var body string
		if err := rows.Scan(&id, &upload, &body); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		host, ok := hosts[upload]
		if !ok {
			continue // a superseded attempt
		}
		var b results.Benchmark
		if err := json.Unmarshal([]byte(body), &b); err != nil {
			return nil, fmt.Errorf("store %s: upload %d: %w", s.where, upload, err)
		}
		t, ok := latest[slot{upload, FleetDeviceKey(b.Device, host)}]
		if !ok {
			continue
		}
		ids[id] = len(out)
		out = append(out, FleetResult{Task: t, Benchmark: b})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return out, s.fleetSamples(ctx, run, ids, out)
}

// fleetSamples fills in the samples of out's benchmarks (ids: a result's
// row to its place in out) from the results of run's uploads.
func (s *Store) fleetSamples(ctx context.Context, run string, ids map[int64]int, out []FleetResult) error {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT s.result_id, s.per_launch_ns, s.launches, s.host_ns, s.device_ns, s.device_busy_ns
		FROM samples s JOIN results r ON r.id = s.result_id
		WHERE r.ok = 1 AND r.upload_id IN (SELECT upload_id FROM fleet_tasks WHERE run = ?) ORDER BY s.result_id, s.idx`), run)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, pl, h, dv, busy int64
		var sm measure.Sample
		if err := rows.Scan(&id, &pl, &sm.Launches, &h, &dv, &busy); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
		i, ok := ids[id]
		if !ok || out[i].Benchmark.Measurement == nil {
			continue // a superseded attempt's
		}
		sm.PerLaunch, sm.Host, sm.Device, sm.DeviceBusy = time.Duration(pl), time.Duration(h), time.Duration(dv), time.Duration(busy)
		m := out[i].Benchmark.Measurement
		m.Samples = append(m.Samples, sm)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

// A FleetRun is one fleet run in the store: its name, how many uploads
// (every attempt) and nodes it has, and when its latest task started.
type FleetRun struct {
	Run            string
	Uploads, Nodes int
	Last           time.Time
}

// FleetRuns lists the fleet runs in the store, the latest started first.
func (s *Store) FleetRuns(ctx context.Context) ([]FleetRun, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT run, COUNT(DISTINCT upload_id), COUNT(DISTINCT node), MAX(created_ns) FROM fleet_tasks
		GROUP BY run ORDER BY MAX(created_ns) DESC, run`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := []FleetRun{}
	for rows.Next() {
		var r FleetRun
		var last int64
		if err := rows.Scan(&r.Run, &r.Uploads, &r.Nodes, &last); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		r.Last = time.Unix(0, last).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
