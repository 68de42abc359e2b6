package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Sweep is a set of rows that share a name and every parameter but one
// numeric one, Param: one series per device (and host).
type Sweep struct {
	Name, Param string
	// Fixed are the parameters the rows share ("type=float").
	Fixed  string
	Series []SweepSeries
}

// A SweepSeries is one device's points of a Sweep, sorted by X.
type SweepSeries struct {
	Label string
	Rows  []Row
	X     []float64
}

// Sweeps finds the sweeps among rows: for each benchmark name and each
// parameter whose values are all quantities (see ParseQuantity), the rows that
// agree on every other parameter, when they hold at least two values of it.
func Sweeps(rows []Row, multiHost bool) []Sweep {
	byName := map[string][]Row{}
	var names []string
	for _, r := range rows {
		if _, ok := byName[r.Key.Name]; !ok {
			names = append(names, r.Key.Name)
		}
		byName[r.Key.Name] = append(byName[r.Key.Name], r)
	}
	var out []Sweep
	for _, name := range names {
		out = append(out, sweepsOf(name, byName[name])...)
	}
	return out
}

// sweepsOf returns the sweeps of the rows rs of benchmark name.
func sweepsOf(name string, rs []Row) []Sweep {
	var pnames []string
	for _, p := range rs[0].Bench.OrderedParams() {
		pnames = append(pnames, p.Name)
	}
	// determines(x, y): every value of x goes with one value of y.
	determines := func(x, y string) bool {
		m := map[string]string{}
		for _, r := range rs {
			xv, yv := r.Bench.Params[x], r.Bench.Params[y]
			if prev, ok := m[xv]; ok && prev != yv {
				return false
			}
			m[xv] = yv
		}
		return true
	}
	var out []Sweep
	for pi, pn := range pnames {
		// A parameter that moves in lockstep with an earlier one (global
		// with n) is the same sweep: skip it.
		dup := false
		for _, earlier := range pnames[:pi] {
			if determines(earlier, pn) && determines(pn, earlier) {
				dup = true
			}
		}
		if dup {
			continue
		}
		// Parameters that follow pn (global with n) do not split the rows.
		follows := map[string]bool{}
		for _, q := range pnames {
			if q != pn && determines(pn, q) && !determines("\x00none", q) {
				follows[q] = true // varies, but with pn
			}
		}
		groups, gorder, numeric := sweepGroups(rs, pn, follows)
		if !numeric {
			continue
		}
		for _, f := range gorder {
			if sw, ok := sweepOf(name, pn, f, groups[f]); ok {
				out = append(out, sw)
			}
		}
	}
	return out
}

// sweepGroups splits rs by the values of their parameters other than pn and
// those that follow it, in the order first seen; numeric is false when a row
// has no quantity for pn.
func sweepGroups(rs []Row, pn string, follows map[string]bool) (groups map[string][]Row, order []string, numeric bool) {
	groups = map[string][]Row{}
	for _, r := range rs {
		v, ok := r.Bench.Params[pn]
		if _, isNum := ParseQuantity(v); !ok || !isNum {
			return nil, nil, false
		}
		var fixed []string
		for _, p := range r.Bench.OrderedParams() {
			if p.Name != pn && !follows[p.Name] {
				fixed = append(fixed, p.Name+"="+p.Value)
			}
		}
		f := strings.Join(fixed, " ")
		if _, ok := groups[f]; !ok {
			order = append(order, f)
		}
		groups[f] = append(groups[f], r)
	}
	return groups, order, true
}

// sweepOf makes the sweep of benchmark name over pn of rows (which agree on
// the fixed parameters): one series per device, sorted by pn. It is no
// sweep (false) with fewer than two values of pn.
func sweepOf(name, pn, fixed string, rows []Row) (Sweep, bool) {
	sw := Sweep{Name: name, Param: pn, Fixed: fixed}
	xs := map[float64]bool{}
	series := map[string]*SweepSeries{}
	var sorder []string
	for _, r := range rows {
		x, _ := ParseQuantity(r.Bench.Params[pn])
		xs[x] = true
		label := r.Key.Device
		if r.Where != "" {
			label += " @" + r.Where
		}
		s := series[label]
		if s == nil {
			s = &SweepSeries{Label: label}
			series[label] = s
			sorder = append(sorder, label)
		}
		s.Rows = append(s.Rows, r)
		s.X = append(s.X, x)
	}
	if len(xs) < 2 {
		return Sweep{}, false
	}
	for _, l := range sorder {
		s := series[l]
		idx := make([]int, len(s.X))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
		ss := SweepSeries{Label: s.Label}
		for _, i := range idx {
			ss.Rows = append(ss.Rows, s.Rows[i])
			ss.X = append(ss.X, s.X[i])
		}
		sw.Series = append(sw.Series, ss)
	}
	return sw, true
}

// sweepMetric picks what a sweep plots: bandwidth when every row has one, else
// the compute rate, else the median per-launch time.
func sweepMetric(sw Sweep) (label string, value func(Row) float64) {
	all := func(f func(Row) float64) bool {
		for _, s := range sw.Series {
			for _, r := range s.Rows {
				if f(r) <= 0 {
					return false
				}
			}
		}
		return true
	}
	bw := func(r Row) float64 {
		if t := r.M().Throughput; t != nil {
			return t.GBPerSecond
		}
		return 0
	}
	ops := func(r Row) float64 {
		if t := r.M().Throughput; t != nil {
			return t.GOpsPerSecond
		}
		return 0
	}
	if all(bw) {
		return "bandwidth (median)", bw
	}
	if all(ops) {
		u := sw.Series[0].Rows[0].M().Throughput.OpsUnit
		if u == "" {
			u = "op"
		}
		return fmt.Sprintf("%s/s (median)", u), ops
	}
	return "median time", func(r Row) float64 { return float64(r.M().Summary.Median) }
}

// A FigureChart is the figures of one device in one unit, from suites.
type FigureChart struct {
	Device, Unit string
	Figures      []FigureRow
}
