package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A FleetResult is one stored benchmark of a fleet run, as its results
// row has it, with the task (the upload and device) that made it: what a
// view of devices side by side reads (package peers), without its body or
// its samples, so that a run of 50,000 benchmarks reads in well under a
// second.
type FleetResult struct {
	Task FleetTask
	// Name and Params (results.ParamString) name the benchmark; Kind says
	// what made it.
	Name, Kind, Params string
	// Device is the device's description, its Index the result's.
	Device results.DeviceInfo
	// Measurement holds the stored figures: Summary's N, Median, Min, Mean,
	// CI and CV, the Throughput's rates, Valid and Timer; no samples. Nil
	// when the benchmark has no figure (failed, interrupted, a best-of or
	// summary row).
	Measurement *measure.Result
	// Error is why the benchmark failed ("" when it did not).
	Error string
}

// FleetResults returns the benchmarks that tasks' latest attempts made
// (tasks is FleetTasks' answer for one run), in upload and file order. A
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
	hosts := map[int64]string{}
	for _, t := range latest {
		hosts[t.UploadID] = t.Host
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT r.upload_id, r.name, r.kind, r.params, r.device_index, r.device_id, r.timer, r.n,
		r.median_ns, r.ci_low_ns, r.ci_high_ns, r.min_ns, r.mean_ns, r.cv, r.gb_per_s, r.gops_per_s, r.ops_unit, r.valid, r.error
		FROM results r WHERE r.upload_id IN (SELECT upload_id FROM fleet_tasks WHERE run = ?) ORDER BY r.upload_id, r.seq`), run)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	devices := map[int64]results.DeviceInfo{}
	var out []FleetResult
	for rows.Next() {
		var upload, devID int64
		var r FleetResult
		var row storedFigures
		if err := rows.Scan(&upload, &r.Name, &r.Kind, &r.Params, &r.Device.Index, &devID, &row.timer, &row.n,
			&row.median, &row.lo, &row.hi, &row.min, &row.mean, &row.cv, &row.gbs, &row.gops, &row.opsUnit, &row.valid, &r.Error); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		host, ok := hosts[upload]
		if !ok {
			continue // a superseded attempt
		}
		index := r.Device.Index
		d, ok := devices[devID]
		if !ok {
			if d, err = s.deviceInfo(ctx, devID); err != nil {
				return nil, err
			}
			devices[devID] = d
		}
		r.Device = d
		r.Device.Index = index
		t, ok := latest[slot{upload, FleetDeviceKey(r.Device, host)}]
		if !ok {
			continue
		}
		r.Task, r.Measurement = t, row.measurement()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return out, nil
}

// storedFigures are the figure columns of a results row.
type storedFigures struct {
	timer, opsUnit                   string
	n                                int
	median, lo, hi, min, mean, valid sql.NullInt64
	cv, gbs, gops                    sql.NullFloat64
}

// measurement is the stored figures as a measure.Result (nil when the row
// has no figure: no median).
func (f storedFigures) measurement() *measure.Result {
	if !f.median.Valid || f.n == 0 {
		return nil
	}
	m := &measure.Result{Timer: measure.Timer(f.timer), Summary: measure.Summary{N: f.n,
		Median: time.Duration(f.median.Int64), CI95Low: time.Duration(f.lo.Int64), CI95High: time.Duration(f.hi.Int64),
		Min: time.Duration(f.min.Int64), Mean: time.Duration(f.mean.Int64), CV: f.cv.Float64}}
	if f.gbs.Valid || f.gops.Valid {
		m.Throughput = &measure.Throughput{GBPerSecond: f.gbs.Float64, GOpsPerSecond: f.gops.Float64, OpsUnit: f.opsUnit}
	}
	if f.valid.Valid {
		v := f.valid.Int64 == 1
		m.Valid = &v
	}
	return m
}

// deviceInfo is the stored description of device id.
func (s *Store) deviceInfo(ctx context.Context, id int64) (results.DeviceInfo, error) {
	var info string
	var d results.DeviceInfo
	if err := s.db.QueryRowContext(ctx, s.q("SELECT info FROM devices WHERE id = ?"), id).Scan(&info); err != nil {
		return d, fmt.Errorf("store %s: device %d: %w", s.where, id, err)
	}
	if err := json.Unmarshal([]byte(info), &d); err != nil {
		return d, fmt.Errorf("store %s: device %d: %w", s.where, id, err)
	}
	return d, nil
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
