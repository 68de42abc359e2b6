package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// scaleSQL is migration 4: what reading one fleet run or one device's
// history out of millions of results needs (docs/STORE.md, "Scale").
//   - results_failed: the failed results (a record with an error), by
//     upload; partial (only those rows), so it costs a write only for a
//     failed benchmark. FleetTasks counts each upload's failures through it
//     instead of visiting every result of the run.
//   - results_device_index: the (device row, index) pairs, for
//     devicePairs' loose index scan instead of a pass over every result.
//   - fleet_tasks_node: a run's tasks by node and device, for the later
//     attempts of a node's device that history's notSuperseded looks for
//     (a shard's are found through fleet_tasks_run).
const scaleSQL = `
CREATE INDEX results_failed ON results (upload_id) WHERE error <> '';
CREATE INDEX results_device_index ON results (device_id, device_index);
CREATE INDEX fleet_tasks_node ON fleet_tasks (run, node, device_key, attempt, created_ns);
`

// pairsSQL is storedPairs' query.
const pairsSQL = `WITH RECURSIVE pairs (device_id, device_index) AS (
		SELECT d.id, (SELECT MIN(r.device_index) FROM results r WHERE r.device_id = d.id) FROM devices d
		UNION ALL
		SELECT p.device_id, (SELECT MIN(r.device_index) FROM results r WHERE r.device_id = p.device_id AND r.device_index > p.device_index)
		FROM pairs p WHERE p.device_index IS NOT NULL)
	SELECT device_id, device_index FROM pairs WHERE device_index IS NOT NULL ORDER BY device_index, device_id`

// deviceRows reads every device row, without the per-device counts that
// Devices adds (those read every result).
func (s *Store) deviceRows(ctx context.Context) (map[int64]Device, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, vendor, platform, platform_version, version, driver_version, type,
		compute_units, max_clock_mhz, info FROM devices`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := map[int64]Device{}
	for rows.Next() {
		var d Device
		var info string
		if err := rows.Scan(&d.ID, &d.Name, &d.Vendor, &d.Platform, &d.PlatformVersion, &d.Version, &d.Driver, &d.Type,
			&d.ComputeUnits, &d.MaxClockMHz, &info); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		json.Unmarshal([]byte(info), &d.Info)
		out[d.ID] = d
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return out, nil
}

// storedPairs returns every distinct (device row, index) of the stored
// results, ordered by index then device row: a loose index scan of
// results_device_index, one index seek per device row and pair, not a pass
// over every result.
func (s *Store) storedPairs(ctx context.Context) ([]devicePair, error) {
	rows, err := s.db.QueryContext(ctx, pairsSQL)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var out []devicePair
	for rows.Next() {
		var p devicePair
		if err := rows.Scan(&p.id, &p.index); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return out, nil
}
