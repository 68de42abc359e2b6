package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/results"
)

// resultBatch is the most results (23 values each) or bodies written by one
// INSERT: a 400-benchmark file takes 4 of each, not 800 statements, and
// each statement is one round trip to a server.
const resultBatch = 100

// resultCols are the columns of results that Add writes, in its order.
const resultCols = `upload_id, seq, name, kind, params, device_id, device_index, created_ns, timer, n, median_ns, ci_low_ns,
	ci_high_ns, min_ns, mean_ns, cv, gb_per_s, gops_per_s, ops_unit, valid, error, ok, device_key`

// insertResults inserts every benchmark of f (its device, result row, body
// and samples) into upload, resultBatch at a time.
func (s *Store) insertResults(ctx context.Context, tx *sql.Tx, f *results.File, upload int64, source string) error {
	devices := map[string]int64{}
	sw := &sampleWriter{s: s, tx: tx}
	defer sw.close()
	created := f.Created.UnixNano()
	for start := 0; start < len(f.Benchmarks); start += resultBatch {
		end := min(start+resultBatch, len(f.Benchmarks))
		rows := make([]resultRow, 0, end-start)
		args := make([]any, 0, 23*(end-start))
		for i := start; i < end; i++ {
			b := &f.Benchmarks[i]
			devID, err := s.deviceID(ctx, tx, b.Device, devices)
			if err != nil {
				return err
			}
			r, err := makeResultRow(b)
			if err != nil {
				return fmt.Errorf("%s: benchmark %d: %w", source, i+1, err)
			}
			rows = append(rows, r)
			args = append(args, upload, i, r.name, r.kind, r.params, devID, r.index, created, r.timer, r.n, r.median, r.lo, r.hi,
				r.minNS, r.mean, r.cv, r.gbs, r.gops, r.opsUnit, r.valid, r.errText, r.ok, seriesKey(b.Device, f.Host.Hostname))
		}
		if err := s.insertBatch(ctx, tx, sw, start, rows, args); err != nil {
			return fmt.Errorf("%s: benchmarks %d to %d: %w", source, start+1, end, err)
		}
		if afterResult != nil {
			for i := start; i < end; i++ {
				if err := afterResult(i); err != nil {
					return err
				}
			}
		}
	}
	if err := sw.flush(ctx); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

// insertBatch writes rows (benchmarks first to first+len(rows)-1, args
// their results columns): their results rows, bodies and samples.
func (s *Store) insertBatch(ctx context.Context, tx *sql.Tx, sw *sampleWriter, first int, rows []resultRow, args []any) error {
	q, err := tx.QueryContext(ctx, s.q("INSERT INTO results ("+resultCols+") VALUES "+marks(len(rows), 23)+" RETURNING seq, id"), args...)
	if err != nil {
		return err
	}
	ids := make([]int64, len(rows))
	got := 0
	for q.Next() {
		var seq int
		var id int64
		if err := q.Scan(&seq, &id); err != nil {
			q.Close()
			return err
		}
		if seq < first || seq >= first+len(rows) {
			q.Close()
			return fmt.Errorf("the server returned sequence %d for benchmarks %d to %d", seq, first, first+len(rows)-1)
		}
		ids[seq-first] = id
		got++
	}
	q.Close()
	if err := q.Err(); err != nil {
		return err
	}
	if got != len(rows) {
		return fmt.Errorf("the server returned %d ids for %d results", got, len(rows))
	}
	bodies := make([]any, 0, 2*len(rows))
	for i, r := range rows {
		bodies = append(bodies, ids[i], r.body)
	}
	if _, err := tx.ExecContext(ctx, s.q("INSERT INTO bodies (result_id, body) VALUES "+marks(len(rows), 2)), bodies...); err != nil {
		return err
	}
	for i, r := range rows {
		for j, sm := range r.samples {
			if err := sw.add(ctx, ids[i], j, sm); err != nil {
				return err
			}
		}
	}
	return nil
}

// marks is the VALUES list of n rows of cols parameters: "(?, ?), (?, ?)".
func marks(n, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
