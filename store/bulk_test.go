package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// The bulk loader writes the rows Add writes (TestBulkLoadIsAdd compares
// them), many files to a transaction, with ids it counts itself: COPY on
// PostgreSQL, prepared INSERTs on SQLite. It builds the scale benchmarks'
// stores; Add is what they measure.

// bulkColumns are the columns the loader writes, table by table, in the
// order it writes them.
var bulkColumns = []struct {
	table string
	cols  []string
}{
	{"uploads", []string{"id", "hash", "source", "created_ns", "added_ns", "tool", "tool_version", "command_line", "host_os",
		"host_arch", "host_cpu", "host_cores", "hostname", "labels", "benchmarks"}},
	{"labels", []string{"upload_id", "key", "value"}},
	{"results", []string{"id", "upload_id", "seq", "name", "kind", "params", "device_id", "device_index", "created_ns", "timer", "n",
		"median_ns", "ci_low_ns", "ci_high_ns", "min_ns", "mean_ns", "cv", "gb_per_s", "gops_per_s", "ops_unit", "valid", "error", "ok",
		"device_key"}},
	{"bodies", []string{"result_id", "body"}},
	{"samples", []string{"result_id", "idx", "per_launch_ns", "launches", "host_ns", "device_ns", "device_busy_ns"}},
	{"fleet_tasks", []string{"upload_id", "device_key", "run", "shard", "shards", "attempt", "node", "host", "scheduler", "created_ns"}},
}

// A bulkLoader counts ids on from the store's largest and keeps the ids of
// the device rows it has made.
type bulkLoader struct {
	s                  *Store
	upload, result     int64
	devices            map[string]int64
	rows               [][][]any // per bulkColumns table
	source             string
	labels             map[string]string
	uploadsSinceCommit int
}

func newBulkLoader(ctx context.Context, s *Store, source string, labels map[string]string) (*bulkLoader, error) {
	l := &bulkLoader{s: s, devices: map[string]int64{}, source: source, labels: labels, rows: make([][][]any, len(bulkColumns))}
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT COALESCE(MAX(id), 0) FROM uploads), (SELECT COALESCE(MAX(id), 0) FROM results)`).
		Scan(&l.upload, &l.result)
	return l, err
}

// A preparedFile is a file with what the loader computes of it before
// ids are known (on another goroutine): its hash and result rows.
type preparedFile struct {
	f    *results.File
	hash string
	rows []resultRow
	err  error
}

func prepareFile(f *results.File, source string) preparedFile {
	pf := preparedFile{f: f}
	if pf.err = Check(f, source); pf.err != nil {
		return pf
	}
	if pf.hash, pf.err = Hash(f); pf.err != nil {
		return pf
	}
	for i := range f.Benchmarks {
		r, err := makeResultRow(&f.Benchmarks[i])
		if err != nil {
			pf.err = err
			return pf
		}
		pf.rows = append(pf.rows, r)
	}
	return pf
}

// add queues a prepared file's rows, making its device rows now (as Add
// does, in its benchmarks' order).
func (l *bulkLoader) add(ctx context.Context, pf preparedFile) error {
	if pf.err != nil {
		return pf.err
	}
	f, hash := pf.f, pf.hash
	labels := fleetLabels(f, l.labels)
	if labels == nil {
		labels = map[string]string{}
	}
	l.upload++
	up := l.upload
	cmdLine, _ := json.Marshal(nonNil(RedactCommand(f.CommandLine)))
	labelJSON, _ := json.Marshal(labels)
	l.put(0, up, hash, RedactLocation(l.source), f.Created.UnixNano(), time.Now().UnixNano(), f.Tool.Name, f.Tool.Version,
		string(cmdLine), f.Host.OS, f.Host.Arch, f.Host.CPU, f.Host.Cores, f.Host.Hostname, string(labelJSON), len(f.Benchmarks))
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		l.put(1, up, k, labels[k])
	}
	if err := l.addResults(ctx, f, pf.rows, up); err != nil {
		return err
	}
	if fl := f.Fleet; fl != nil && fl.Run != "" {
		seen := map[string]bool{}
		for _, b := range f.Benchmarks {
			if key := FleetDeviceKey(b.Device, f.Host.Hostname); !seen[key] {
				seen[key] = true
				l.put(5, up, key, fl.Run, fl.Shard, fl.Shards, fl.Attempt, fl.Node, f.Host.Hostname, fl.Scheduler, f.Created.UnixNano())
			}
		}
	}
	l.uploadsSinceCommit++
	return nil
}

func (l *bulkLoader) addResults(ctx context.Context, f *results.File, rows []resultRow, up int64) error {
	created := f.Created.UnixNano()
	for i := range f.Benchmarks {
		b := &f.Benchmarks[i]
		devID, err := l.deviceID(ctx, b.Device)
		if err != nil {
			return err
		}
		r := rows[i]
		l.result++
		id := l.result
		l.put(2, id, up, i, r.name, r.kind, r.params, devID, r.index, created, r.timer, r.n, r.median, r.lo, r.hi, r.minNS, r.mean,
			r.cv, r.gbs, r.gops, r.opsUnit, r.valid, r.errText, r.ok, seriesKey(b.Device, f.Host.Hostname))
		l.put(3, id, r.body)
		for j, sm := range r.samples {
			l.put(4, id, j, int64(sm.PerLaunch), sm.Launches, int64(sm.Host), int64(sm.Device), int64(sm.DeviceBusy))
		}
	}
	return nil
}

// put queues one row of table t, NULL-able values as nil or their value.
func (l *bulkLoader) put(t int, vals ...any) {
	for i, v := range vals {
		switch n := v.(type) {
		case sql.NullInt64:
			vals[i] = nil
			if n.Valid {
				vals[i] = n.Int64
			}
		case sql.NullFloat64:
			vals[i] = nil
			if n.Valid {
				vals[i] = n.Float64
			}
		case int:
			vals[i] = int64(n)
		}
	}
	l.rows[t] = append(l.rows[t], vals)
}

// deviceID makes the device row of d (in a transaction of its own) the
// first time it is seen.
func (l *bulkLoader) deviceID(ctx context.Context, d results.DeviceInfo) (int64, error) {
	d.Index = ""
	info, _ := json.Marshal(d)
	if id, ok := l.devices[string(info)]; ok {
		return id, nil
	}
	tx, err := l.s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	id, err := l.s.deviceID(ctx, tx, d, map[string]int64{})
	if err != nil {
		return 0, err
	}
	l.devices[string(info)] = id
	return id, tx.Commit()
}

// flush writes the queued rows in one transaction.
func (l *bulkLoader) flush(ctx context.Context) error {
	defer func() {
		for i := range l.rows {
			l.rows[i] = l.rows[i][:0]
		}
		l.uploadsSinceCommit = 0
	}()
	if l.s.dialect == Postgres {
		return l.copyPostgres(ctx)
	}
	tx, err := l.s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for t, tc := range bulkColumns {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(tc.cols)), ", ")
		st, err := tx.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", tc.table, strings.Join(tc.cols, ", "), marks))
		if err != nil {
			return err
		}
		for _, row := range l.rows[t] {
			if _, err := st.ExecContext(ctx, row...); err != nil {
				st.Close()
				return fmt.Errorf("%s: %w", tc.table, err)
			}
		}
		st.Close()
	}
	return tx.Commit()
}

// copyPostgres writes the queued rows with COPY, in one transaction: a
// COPY ... FROM STDIN statement takes a row an Exec (lib/pq sends them in
// large messages) and an Exec without values ends it.
func (l *bulkLoader) copyPostgres(ctx context.Context) error {
	tx, err := l.s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for t, tc := range bulkColumns {
		if err := copyRows(ctx, tx, tc.table, tc.cols, l.rows[t]); err != nil {
			return fmt.Errorf("%s: %w", tc.table, err)
		}
	}
	return tx.Commit()
}

// copyRows copies rows into table's cols.
func copyRows(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any) error {
	st, err := tx.PrepareContext(ctx, fmt.Sprintf("COPY %s (%s) FROM STDIN", table, strings.Join(cols, ", ")))
	if err != nil {
		return err
	}
	defer st.Close()
	for _, row := range rows {
		if _, err := st.ExecContext(ctx, row...); err != nil {
			return err
		}
	}
	_, err = st.ExecContext(ctx)
	return err
}

// finish makes the database's own id counters go on from the loaded ids
// (PostgreSQL; SQLite's go on from the largest id) and refreshes the
// planner's statistics as autovacuum would (PostgreSQL's ANALYZE).
func (l *bulkLoader) finish(ctx context.Context) error {
	if l.s.dialect != Postgres {
		return nil
	}
	for _, t := range []string{"uploads", "results"} {
		if _, err := l.s.db.ExecContext(ctx, fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), (SELECT MAX(id) FROM %s))", t, t)); err != nil {
			return err
		}
	}
	_, err := l.s.db.ExecContext(ctx, "ANALYZE")
	return err
}

// bulkLoadPlan loads runs from to to-1 of plan p, about 20,000 results to a
// transaction, files made and prepared by two goroutines while this one
// writes.
func bulkLoadPlan(ctx context.Context, s *Store, p storetest.FleetPlan, from, to int) error {
	l, err := newBulkLoader(ctx, s, "bulk", nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Worker k makes files k, k+workers, ...; they are read back in order.
	const workers = 2
	var out [workers]chan preparedFile
	total := (to - from) * p.Nodes()
	for k := range out {
		out[k] = make(chan preparedFile, 16)
		go func() {
			defer close(out[k])
			for i := k; i < total; i += workers {
				select {
				case out[k] <- prepareFile(p.File(from+i/p.Nodes(), i%p.Nodes()), l.source):
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	per := max(1, 20000/(storetest.GPUsPerNode*p.Benchmarks))
	for i := range total {
		if err := l.add(ctx, <-out[i%workers]); err != nil {
			return err
		}
		if l.uploadsSinceCommit >= per {
			if err := l.flush(ctx); err != nil {
				return err
			}
		}
	}
	if err := l.flush(ctx); err != nil {
		return err
	}
	return l.finish(ctx)
}
