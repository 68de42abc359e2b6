package store

import (
	"database/sql"
	"encoding/json"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A resultRow is what Add writes of one benchmark: its results row's
// columns (less the upload, sequence, device and creation columns), its body
// (the benchmark's JSON without samples) and its samples.
type resultRow struct {
	name, kind, params, index, timer, opsUnit, errText string
	n, ok                                              int
	median, lo, hi, minNS, mean, valid                 sql.NullInt64
	cv, gbs, gops                                      sql.NullFloat64
	body                                               string
	samples                                            []measure.Sample
}

// makeResultRow returns what Add writes of b.
func makeResultRow(b *results.Benchmark) (resultRow, error) {
	r := resultRow{name: b.Name, kind: b.Kind, params: results.ParamString(b), index: b.Device.Index, errText: b.Error}
	body := *b
	if m := b.Measurement; m != nil {
		if b.HasFigure() {
			r.samples = m.Samples
		}
		mc := *m
		mc.Samples = []measure.Sample{}
		body.Measurement = &mc
		sm := m.Summary
		r.timer, r.n = string(m.Timer), sm.N
		// A failed or interrupted benchmark carries no figure (an older file
		// may still hold one): its row is stored, not ok, with no median or
		// rates.
		if !b.HasFigure() {
			r.n, sm = 0, measure.Summary{}
		}
		if sm.N > 0 {
			r.median = sql.NullInt64{Int64: int64(sm.Median), Valid: true}
			r.lo = sql.NullInt64{Int64: int64(sm.CI95Low), Valid: sm.HasCI()}
			r.hi = sql.NullInt64{Int64: int64(sm.CI95High), Valid: sm.HasCI()}
			r.minNS = sql.NullInt64{Int64: int64(sm.Min), Valid: true}
			r.mean = sql.NullInt64{Int64: int64(sm.Mean), Valid: true}
			r.cv = sql.NullFloat64{Float64: sm.CV, Valid: true}
		}
		if t := m.Throughput; t != nil && b.HasFigure() {
			r.gbs = sql.NullFloat64{Float64: t.GBPerSecond, Valid: t.BytesPerLaunch > 0}
			r.gops = sql.NullFloat64{Float64: t.GOpsPerSecond, Valid: t.OpsPerLaunch > 0}
			r.opsUnit = t.OpsUnit
		}
		if m.Valid != nil {
			r.valid = sql.NullInt64{Valid: true}
			if *m.Valid {
				r.valid.Int64 = 1
			}
		}
	}
	bodyJSON, err := json.Marshal(body)
	if err != nil {
		return r, err
	}
	r.body = string(bodyJSON)
	if r.median.Valid && b.Error == "" {
		r.ok = 1
	}
	return r, nil
}
