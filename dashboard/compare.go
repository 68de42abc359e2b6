package dashboard

import (
	"context"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results/compare"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/units"
)

// A comparePair is one row of /compare: the newest runs on A and B, and
// what 'clmeter compare' says of their samples.
type comparePair struct {
	store.Pair
	// Stat is compare.Samples of the two runs' samples (nil unless both
	// sides have samples).
	Stat *compare.Pair
	// HostA and HostB: that side's run is timed by the host clock.
	HostA, HostB bool
}

// Mixed says the two sides were timed by different clocks: their ratio
// compares a host-timed run with a device-timed one.
func (p comparePair) Mixed() bool { return p.HostA != p.HostB }

// CI writes the ratio's interval as 'clmeter compare' does: "[0.981, 1.02]".
func (p comparePair) CI() string {
	if p.Stat == nil || math.IsNaN(p.Stat.RatioLow) {
		return ""
	}
	return fmt.Sprintf("[%.3f, %.3f]", p.Stat.RatioLow, p.Stat.RatioHigh)
}

// Test writes the Mann-Whitney p-value and sample counts, and the verdict.
func (p comparePair) Test() string {
	if p.Stat == nil {
		return ""
	}
	return fmt.Sprintf("%s, n=%d+%d: %s", units.PValue(p.Stat.P), len(p.Stat.Old), len(p.Stat.New), p.Stat.Verdict)
}

func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	devs, err := s.st.Devices(r.Context())
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	known := map[int64]bool{}
	for _, d := range devs {
		known[d.ID] = true
	}
	var ids [2]int64
	for i, key := range []string{"a", "b"} {
		v := r.URL.Query().Get(key)
		if v == "" {
			continue
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			s.fail(w, http.StatusBadRequest, fmt.Errorf("device %s=%q: want a device number from the list on /compare", key, v))
			return
		}
		if !known[id] {
			s.fail(w, http.StatusNotFound, fmt.Errorf("device %s=%d: no such device in this store (see /compare for the list)", key, id))
			return
		}
		ids[i] = id
	}
	a, b := ids[0], ids[1]
	if a == 0 && len(devs) > 0 {
		a = devs[0].ID
	}
	if b == 0 {
		for _, d := range devs {
			if d.ID != a {
				b = d.ID
				break
			}
		}
	}
	data := struct {
		Devices     []store.Device
		Labels      map[int64]string
		A, B        int64
		Pairs       []comparePair
		Both, Mixed int
		Geomean     float64
		Alpha       float64
		Level       string
		Chart       template.HTML
	}{Devices: devs, Labels: deviceLabels(devs), A: a, B: b, Alpha: compare.DefaultAlpha, Level: fmt.Sprintf("%.0f", 100*(1-compare.DefaultAlpha))}
	if a != 0 && b != 0 {
		pairs, err := s.st.Latest(r.Context(), a, b)
		if err != nil {
			s.fail(w, http.StatusInternalServerError, err)
			return
		}
		if data.Pairs, err = s.comparePairs(r.Context(), pairs); err != nil {
			s.fail(w, http.StatusInternalServerError, err)
			return
		}
		data.Both, data.Mixed, data.Geomean, data.Chart = compareSummary(data.Pairs)
	}
	s.render(w, http.StatusOK, "compare", "Compare", data)
}

// comparePairs reads each pair's two runs and compares their samples as
// 'clmeter compare' does (same test, interval and significance level).
func (s *Server) comparePairs(ctx context.Context, pairs []store.Pair) ([]comparePair, error) {
	out := make([]comparePair, len(pairs))
	for i, p := range pairs {
		out[i].Pair = p
		if p.A == nil || p.B == nil {
			continue
		}
		sa, hostA, err := s.samples(ctx, p.A.ResultID)
		if err != nil {
			return nil, err
		}
		sb, hostB, err := s.samples(ctx, p.B.ResultID)
		if err != nil {
			return nil, err
		}
		out[i].HostA, out[i].HostB = hostA, hostB
		if len(sa) > 0 && len(sb) > 0 {
			st := compare.Samples(sa, sb, compare.DefaultAlpha)
			out[i].Stat = &st
		}
	}
	return out, nil
}

// samples returns a run's per-launch times in nanoseconds and whether the
// host clock timed them.
func (s *Server) samples(ctx context.Context, id int64) ([]float64, bool, error) {
	res, err := s.st.Result(ctx, id)
	if err != nil {
		return nil, false, err
	}
	m := res.Benchmark.Measurement
	if m == nil {
		return nil, false, nil
	}
	x := make([]float64, 0, len(m.Samples))
	for _, sm := range m.Samples {
		if sm.PerLaunch > 0 {
			x = append(x, float64(sm.PerLaunch))
		}
	}
	return x, m.Timer == measure.TimerHost, nil
}

// compareSummary counts the pairs measured on both sides and those whose
// sides were timed by different clocks, and gives the geomean ratio and the
// ratio chart of the others: a host-timed against a device-timed ratio is
// in the table, marked, and in neither.
func compareSummary(pairs []comparePair) (both, mixed int, geomean float64, chart template.HTML) {
	var bars []bar
	logSum := 0.0
	for _, p := range pairs {
		ratio := p.Ratio()
		if ratio <= 0 {
			continue
		}
		if p.Mixed() {
			mixed++
			continue
		}
		both++
		logSum += math.Log(ratio)
		label := p.Benchmark
		if p.Params != "" {
			label += " " + p.Params
		}
		bars = append(bars, bar{Label: label, Ratio: ratio, Href: "/bench?name=" + urlQuery(p.Benchmark)})
	}
	if both > 0 {
		geomean = math.Exp(logSum / float64(both))
	}
	if len(bars) > 200 {
		bars = bars[:200]
	}
	return both, mixed, geomean, ratioChart(bars)
}
