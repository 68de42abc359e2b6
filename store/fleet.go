package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/clmeter/clmeter/results"
)

// fleetSQL is migration 3: one row per upload of a fleet run and device
// key, with the upload's shard, attempt and node. Every attempt is kept;
// FleetTasks marks the latest.
const fleetSQL = `
CREATE TABLE fleet_tasks (
	upload_id BIGINT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
	device_key TEXT NOT NULL,
	run TEXT NOT NULL,
	shard INTEGER NOT NULL,
	shards INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	node TEXT NOT NULL,
	host TEXT NOT NULL,
	scheduler TEXT NOT NULL,
	created_ns BIGINT NOT NULL,
	PRIMARY KEY (upload_id, device_key)
);
CREATE INDEX fleet_tasks_run ON fleet_tasks (run, shard, device_key, attempt, created_ns);
`

// fleetLabels returns the labels a fleet file adds to its upload where the
// caller's labels do not set them: the scheduler's (FleetInfo.Labels) and
// fleet.run, fleet.shard ("i/n"), fleet.node and fleet.attempt.
func fleetLabels(f *results.File, labels map[string]string) map[string]string {
	fl := f.Fleet
	if fl == nil {
		return labels
	}
	out := map[string]string{}
	for k, v := range fl.Labels {
		out[k] = v
	}
	set := func(k, v string) {
		if v != "" {
			out[k] = v
		}
	}
	set("fleet.run", fl.Run)
	set("fleet.node", fl.Node)
	if fl.Shards > 0 {
		set("fleet.shard", fmt.Sprintf("%d/%d", fl.Shard, fl.Shards))
	}
	if fl.Attempt > 0 {
		set("fleet.attempt", strconv.Itoa(fl.Attempt))
	}
	for k, v := range labels {
		out[k] = v
	}
	return out
}

// FleetDeviceKey is the device key a fleet task is kept under: the
// device's Key, else (a file that has none) host/platform/name/index.
func FleetDeviceKey(d results.DeviceInfo, host string) string {
	if d.Key != "" {
		return d.Key
	}
	if d.Host != "" {
		host = d.Host
	}
	return "fallback:" + host + "/" + d.Platform + "/" + d.Name + "/" + d.Index
}

// insertFleet adds the fleet_tasks rows of f's upload: one per device key.
func (s *Store) insertFleet(ctx context.Context, tx *sql.Tx, f *results.File, upload int64) error {
	fl := f.Fleet
	if fl == nil || fl.Run == "" {
		return nil
	}
	seen := map[string]bool{}
	for _, b := range f.Benchmarks {
		key := FleetDeviceKey(b.Device, f.Host.Hostname)
		if seen[key] {
			continue
		}
		seen[key] = true
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO fleet_tasks (upload_id, device_key, run, shard, shards, attempt, node, host,
			scheduler, created_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			upload, key, fl.Run, fl.Shard, fl.Shards, fl.Attempt, fl.Node, f.Host.Hostname, fl.Scheduler, f.Created.UnixNano())
		if err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
	}
	return nil
}

// A FleetTask is one upload of a fleet run on one device.
type FleetTask struct {
	UploadID  int64
	DeviceKey string
	Run       string
	// Shard of Shards (Shards 0: the task ran every benchmark).
	Shard, Shards int
	// Attempt counts the task's earlier attempts (the scheduler's restart
	// count).
	Attempt    int
	Node, Host string
	Scheduler  string
	Created    time.Time
	// Command is the upload's command line (passwords redacted); Failed
	// counts its benchmarks that failed (an error, an abandon: a record
	// with an error); a record without samples and without an error (a
	// suite's best-of row or summary) is no failure.
	Command []string
	Failed  int
	// Latest is set on the attempt that counts: the latest attempt of its
	// shard (a sharded task, which may land on another node when retried),
	// or of its node's device (a task that ran every benchmark: one per
	// node);
	// later attempt number first, then later start, then later upload.
	Latest bool
}

// Slot is what a task's attempts are attempts of: "shard i/n", or "node N
// device KEY" for a task that ran every benchmark (two logical nodes of one
// host, whose devices may share a key, stay apart by the node's name).
func (t FleetTask) Slot() string {
	if t.Shards > 0 {
		return fmt.Sprintf("shard %d/%d", t.Shard, t.Shards)
	}
	return "node " + t.Node + " device " + t.DeviceKey
}

// FleetTasks returns every upload of fleet run run, device by device, in
// slot order, each slot's latest attempt marked (Latest), earlier attempts
// kept after it.
func (s *Store) FleetTasks(ctx context.Context, run string) ([]FleetTask, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT f.upload_id, f.device_key, f.run, f.shard, f.shards, f.attempt, f.node, f.host,
		f.scheduler, f.created_ns, u.command_line, (SELECT COUNT(*) FROM results r WHERE r.upload_id = f.upload_id AND r.error <> '')
		FROM fleet_tasks f JOIN uploads u ON u.id = f.upload_id WHERE f.run = ?`), run)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var out []FleetTask
	for rows.Next() {
		var t FleetTask
		var created int64
		var command string
		if err := rows.Scan(&t.UploadID, &t.DeviceKey, &t.Run, &t.Shard, &t.Shards, &t.Attempt, &t.Node, &t.Host, &t.Scheduler, &created,
			&command, &t.Failed); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		json.Unmarshal([]byte(command), &t.Command)
		t.Created = time.Unix(0, created).UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	markLatest(out)
	return out, nil
}

// markLatest sorts tasks by slot, latest attempt first, and marks the first
// upload of each slot Latest (all its device rows).
func markLatest(tasks []FleetTask) {
	sort.SliceStable(tasks, func(i, j int) bool {
		a, b := tasks[i], tasks[j]
		switch {
		case a.Shards != b.Shards:
			return a.Shards > b.Shards
		case a.Shards > 0 && a.Shard != b.Shard:
			return a.Shard < b.Shard
		case a.Shards == 0 && a.Node != b.Node:
			return a.Node < b.Node
		case a.Shards == 0 && a.DeviceKey != b.DeviceKey:
			return a.DeviceKey < b.DeviceKey
		case a.Attempt != b.Attempt:
			return a.Attempt > b.Attempt
		case !a.Created.Equal(b.Created):
			return a.Created.After(b.Created)
		case a.UploadID != b.UploadID:
			return a.UploadID > b.UploadID
		}
		return a.DeviceKey < b.DeviceKey
	})
	latest := map[string]int64{}
	for i := range tasks {
		slot := tasks[i].Slot()
		if _, ok := latest[slot]; !ok {
			latest[slot] = tasks[i].UploadID
		}
		tasks[i].Latest = latest[slot] == tasks[i].UploadID
	}
}

// MissingShards returns the shards 0 to n-1 of which tasks hold no upload,
// n the largest shard count among them (none when no task was sharded).
func MissingShards(tasks []FleetTask) []int {
	n := 0
	have := map[int]bool{}
	for _, t := range tasks {
		n = max(n, t.Shards)
		if t.Shards > 0 {
			have[t.Shard] = true
		}
	}
	var out []int
	for i := range n {
		if !have[i] {
			out = append(out, i)
		}
	}
	return out
}

// notSuperseded keeps a result unless its upload is a fleet task's attempt
// that a later attempt of the same slot replaces (FleetTask.Slot, and
// markLatest's order: attempt, start, upload): a retried task counts once.
// One NOT EXISTS per kind of slot (a shard; a node's device), so that each
// finds the later attempts by an index (fleet_tasks_run; fleet_tasks_node)
// rather than among every task of the run.
const notSuperseded = `NOT EXISTS (SELECT 1 FROM fleet_tasks f JOIN fleet_tasks g ON g.run = f.run AND g.shards = f.shards
	AND g.shard = f.shard AND ` + laterAttempt + ` WHERE f.upload_id = r.upload_id AND f.shards > 0)
	AND NOT EXISTS (SELECT 1 FROM fleet_tasks f JOIN fleet_tasks g ON g.run = f.run AND g.node = f.node
	AND g.device_key = f.device_key AND g.shards = 0 AND ` + laterAttempt + ` WHERE f.upload_id = r.upload_id AND f.shards = 0)`

// laterAttempt holds when task g is a later attempt than task f.
const laterAttempt = `(g.attempt > f.attempt OR (g.attempt = f.attempt AND (g.created_ns > f.created_ns
	OR (g.created_ns = f.created_ns AND g.upload_id > f.upload_id))))`
