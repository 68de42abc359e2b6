package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
)

// A migration moves the schema from version-1 to version. SQL is written once
// for both databases; {{id}} becomes each one's auto-numbered primary key.
// fill, when set, runs after the SQL in the same transaction: for data that
// only Go can compute.
type migration struct {
	version int
	name    string
	sql     string
	fill    func(ctx context.Context, tx *sql.Tx, s *Store) error
}

// migrations in order; version i+1 is migrations[i]. Never edit one that has
// shipped: add the next.
var migrations = []migration{
	{1, "uploads, labels, devices, results, bodies, samples", `
CREATE TABLE uploads (
	id {{id}},
	hash TEXT NOT NULL UNIQUE,
	source TEXT NOT NULL,
	created_ns BIGINT NOT NULL,
	added_ns BIGINT NOT NULL,
	tool TEXT NOT NULL,
	tool_version TEXT NOT NULL,
	command_line TEXT NOT NULL,
	host_os TEXT NOT NULL,
	host_arch TEXT NOT NULL,
	host_cpu TEXT NOT NULL,
	host_cores INTEGER NOT NULL,
	hostname TEXT NOT NULL,
	labels TEXT NOT NULL,
	benchmarks INTEGER NOT NULL
);
CREATE INDEX uploads_created ON uploads (created_ns);
CREATE TABLE labels (
	upload_id BIGINT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (upload_id, key)
);
CREATE INDEX labels_key_value ON labels (key, value);
CREATE TABLE devices (
	id {{id}},
	hash TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	vendor TEXT NOT NULL,
	platform TEXT NOT NULL,
	platform_version TEXT NOT NULL,
	version TEXT NOT NULL,
	driver_version TEXT NOT NULL,
	type TEXT NOT NULL,
	compute_units INTEGER NOT NULL,
	max_clock_mhz INTEGER NOT NULL,
	info TEXT NOT NULL
);
CREATE TABLE results (
	id {{id}},
	upload_id BIGINT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	name TEXT NOT NULL,
	kind TEXT NOT NULL,
	params TEXT NOT NULL,
	device_id BIGINT NOT NULL REFERENCES devices (id),
	device_index TEXT NOT NULL,
	created_ns BIGINT NOT NULL,
	timer TEXT NOT NULL,
	n INTEGER NOT NULL,
	median_ns BIGINT,
	ci_low_ns BIGINT,
	ci_high_ns BIGINT,
	min_ns BIGINT,
	mean_ns BIGINT,
	cv DOUBLE PRECISION,
	gb_per_s DOUBLE PRECISION,
	gops_per_s DOUBLE PRECISION,
	ops_unit TEXT NOT NULL,
	valid INTEGER,
	error TEXT NOT NULL,
	ok INTEGER NOT NULL,
	UNIQUE (upload_id, seq)
);
CREATE INDEX results_history ON results (name, ok, params, device_id, created_ns, id, upload_id,
	median_ns, ci_low_ns, ci_high_ns, n, cv, valid);
CREATE INDEX results_device ON results (device_id, ok, name, params, created_ns);
CREATE TABLE bodies (
	result_id BIGINT PRIMARY KEY REFERENCES results (id) ON DELETE CASCADE,
	body TEXT NOT NULL
);
CREATE TABLE samples (
	result_id BIGINT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
	idx INTEGER NOT NULL,
	per_launch_ns BIGINT NOT NULL,
	launches INTEGER NOT NULL,
	host_ns BIGINT NOT NULL,
	device_ns BIGINT NOT NULL,
	device_busy_ns BIGINT NOT NULL,
	PRIMARY KEY (result_id, idx)
);
`, nil},
	// The device key (results.DeviceInfo.SeriesKey) of each result: what
	// history and the dashboard keep series apart by. It is a result's, not
	// a device row's: a record of a file older than result schema 4 has no
	// key, and its fallback key holds the result's index and the upload's
	// host. The history index covers it.
	{2, "results.device_key", `
ALTER TABLE results ADD COLUMN device_key TEXT NOT NULL DEFAULT '';
DROP INDEX results_history;
CREATE INDEX results_history ON results (name, ok, params, device_id, device_key, created_ns, id, upload_id,
	median_ns, ci_low_ns, ci_high_ns, n, cv, valid);
`, fillDeviceKeys},
	{3, "fleet tasks: run, shard, attempt, node per upload and device", fleetSQL, nil},
}

// fillDeviceKeys sets the device key of every stored result, as Add would
// have: from the device row's description, the result's index and the
// upload's host.
func fillDeviceKeys(ctx context.Context, tx *sql.Tx, s *Store) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT r.device_id, r.device_index, u.hostname, d.info
		FROM results r JOIN uploads u ON u.id = r.upload_id JOIN devices d ON d.id = r.device_id`)
	if err != nil {
		return err
	}
	type group struct {
		id          int64
		index, host string
		key         string
	}
	var groups []group
	for rows.Next() {
		var g group
		var info string
		if err := rows.Scan(&g.id, &g.index, &g.host, &info); err != nil {
			rows.Close()
			return err
		}
		var d results.DeviceInfo
		json.Unmarshal([]byte(info), &d) // a row Add wrote: it decodes
		d.Index = g.index
		g.key = seriesKey(d, g.host)
		groups = append(groups, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range groups {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET device_key = ? WHERE device_id = ? AND device_index = ?
			AND upload_id IN (SELECT id FROM uploads WHERE hostname = ?)`), g.key, g.id, g.index, g.host); err != nil {
			return err
		}
	}
	return nil
}

// seriesKey is the key a result of device d, in a file measured on host,
// is stored under: d's SeriesKey, its host taken from the file when the
// record has none (results.Read does so for an older file; a File built in
// memory may not have).
func seriesKey(d results.DeviceInfo, host string) string {
	if d.Host == "" {
		d.Host = host
	}
	return d.SeriesKey()
}

// SchemaVersion is the schema version this package writes: the number of
// migrations.
func SchemaVersion() int { return len(migrations) }

// migrate brings the schema to SchemaVersion in one transaction, serialised
// between processes (SQLite's write lock, taken at BEGIN; a PostgreSQL advisory
// lock). A store from a newer clmeter is refused.
func (s *Store) migrate(ctx context.Context) error {
	if s.readOnly {
		v, err := s.schemaVersion(ctx, s.db)
		if err != nil {
			return err
		}
		if v != SchemaVersion() {
			return s.versionError(v)
		}
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	if s.dialect == Postgres {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(7436897562)"); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ns BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	v, err := s.schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > SchemaVersion() {
		return s.versionError(v)
	}
	for _, m := range migrations[v:] {
		for _, stmt := range splitSQL(s.expand(m.sql)) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: migration %d (%s): %w", s.where, m.version, m.name, err)
			}
		}
		if m.fill != nil {
			if err := m.fill(ctx, tx, s); err != nil {
				return fmt.Errorf("store %s: migration %d (%s): %w", s.where, m.version, m.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO schema_migrations (version, name, applied_ns) VALUES (?, ?, ?)"),
			m.version, m.name, time.Now().UnixNano()); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

func (s *Store) versionError(v int) error {
	if v > SchemaVersion() {
		return fmt.Errorf("store %s has schema version %d, newer than this clmeter's %d: use a newer clmeter", s.where, v, SchemaVersion())
	}
	return fmt.Errorf("store %s has schema version %d, not %d: open it once for writing (clmeter store add) to upgrade it", s.where, v, SchemaVersion())
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaVersion is the highest migration applied; 0 for an empty database.
func (s *Store) schemaVersion(ctx context.Context, q querier) (int, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "does not exist") {
			return 0, nil
		}
		return 0, fmt.Errorf("store %s: %w", s.where, err)
	}
	return int(v.Int64), nil
}

func (s *Store) expand(sqlText string) string {
	id := "INTEGER PRIMARY KEY"
	if s.dialect == Postgres {
		id = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
	}
	return strings.ReplaceAll(sqlText, "{{id}}", id)
}

// splitSQL splits a migration into statements at semicolons (migrations hold
// no string literals with semicolons).
func splitSQL(text string) []string {
	var out []string
	for _, st := range strings.Split(text, ";") {
		if st = strings.TrimSpace(st); st != "" {
			out = append(out, st)
		}
	}
	return out
}
