package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime/devsel"
)

// A Pair is one benchmark's newest result on two devices (or drivers).
type Pair struct {
	Benchmark, Params string
	// A and B are the newest points; nil where that side has none.
	A, B *Point
}

// Ratio is B's median over A's (below 1: B is faster); 0 when a side is
// missing.
func (p *Pair) Ratio() float64 {
	if p.A == nil || p.B == nil || p.A.Median == 0 {
		return 0
	}
	return float64(p.B.Median) / float64(p.A.Median)
}

// Latest returns, for every benchmark and parameters measured on device row a
// or b, the newest result on each, sorted by benchmark and parameters.
func (s *Store) Latest(ctx context.Context, a, b int64) ([]Pair, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT r.id, r.upload_id, r.name, r.params, r.device_id, r.created_ns,
			r.median_ns, COALESCE(r.ci_low_ns, 0), COALESCE(r.ci_high_ns, 0), r.n, r.cv
		FROM results r JOIN (SELECT device_id, name, params, MAX(created_ns) AS newest FROM results
			WHERE device_id IN (?, ?) AND ok = 1 GROUP BY device_id, name, params) m
		ON r.device_id = m.device_id AND r.ok = 1 AND r.name = m.name AND r.params = m.params AND r.created_ns = m.newest
		ORDER BY r.name, r.params, r.id DESC`), a, b)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := []Pair{}
	for rows.Next() {
		var p Point
		var name, params string
		var dev, created, med, lo, hi int64
		var cv sql.NullFloat64
		if err := rows.Scan(&p.ResultID, &p.UploadID, &name, &params, &dev, &created, &med, &lo, &hi, &p.N, &cv); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		p.Created = time.Unix(0, created).UTC()
		p.Median, p.CILow, p.CIHigh, p.CV = time.Duration(med), time.Duration(lo), time.Duration(hi), cv.Float64
		n := len(out)
		if n == 0 || out[n-1].Benchmark != name || out[n-1].Params != params {
			out = append(out, Pair{Benchmark: name, Params: params})
			n++
		}
		// Two results of one run start: the later added wins.
		pp := p
		if dev == a && out[n-1].A == nil {
			out[n-1].A = &pp
		}
		if dev == b && out[n-1].B == nil {
			out[n-1].B = &pp
		}
	}
	return out, rows.Err()
}

// A devicePair is a stored device and the platform:device it was measured as
// (the index is a result's, not the device's: another machine may list it elsewhere).
type devicePair struct {
	id    int64
	index string
}

// devicePairs are the stored devices and indexes spec names (Filter.Device).
func (s *Store) devicePairs(ctx context.Context, spec string) ([]devicePair, error) {
	sp, err := devsel.Parse(spec)
	if err != nil {
		return nil, fail.With(fail.Usage, err)
	}
	devs, err := s.Devices(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]Device{}
	for _, d := range devs {
		byID[d.ID] = d
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT device_id, device_index FROM results ORDER BY device_index, device_id`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var pairs []devicePair
	var cands []devsel.Candidate
	for rows.Next() {
		var p devicePair
		if err := rows.Scan(&p.id, &p.index); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		d := byID[p.id]
		c := devsel.Candidate{Index: -1, Platform: -1, Device: -1, Type: strings.ToLower(d.Type),
			Text:  strings.Join([]string{d.Name, d.Vendor, d.Platform, d.PlatformVersion, d.Driver, d.Info.UUID, d.Info.PCI}, "\x00"),
			Label: strings.TrimSpace(p.index + " " + d.Name + " [" + strings.ToLower(d.Type) + "] (driver " + d.Driver + ")")}
		if pi, di, ok := strings.Cut(p.index, ":"); ok {
			a, err1 := strconv.Atoi(pi)
			b, err2 := strconv.Atoi(di)
			if err1 == nil && err2 == nil {
				c.Platform, c.Device = a, b
			}
		}
		pairs = append(pairs, p)
		cands = append(cands, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	idx, err := sp.Match(cands)
	if err != nil && !errors.Is(err, devsel.ErrNoMatch) {
		return nil, fail.With(fail.Usage, err) // an index: not a stored device's name
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	out := make([]devicePair, len(idx))
	for i, j := range idx {
		out[i] = pairs[j]
	}
	return out, nil
}
