// Package history turns the store's series of runs into what a person or a
// CI job reads: each series' change points, drifts and outliers (found by
// changepoint) with verdicts against a threshold, written as a table, JSON,
// CSV or markdown, and the CI verdict: a regression at the newest runs.
package history

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/changepoint"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
)

// ErrRegression is returned (wrapped) by Write and Verdict in CI mode when a
// series slowed down beyond the threshold at its newest runs.
var ErrRegression = errors.New("regression")

// DefaultThreshold is the CLI's default size (relative) a change must exceed
// to be called a regression or an improvement: 5%.
const DefaultThreshold = 0.05

// DefaultRecent is the default number of newest runs within which CI mode
// looks for a regression's first slow run.
const DefaultRecent = 5

// Options say what Write shows.
type Options struct {
	Filter store.Filter
	// Format is "table" (default), "json", "csv" or "markdown" ("md").
	Format string
	// Regressions shows the change points, drifts and outliers of each
	// series instead of its runs.
	Regressions bool
	// Threshold is the relative size beyond which a change or a drift is a
	// regression (slower) or an improvement (faster); 0 counts every one
	// found. In CI mode only findings beyond it are reported.
	Threshold float64
	// CI makes a regression beyond Threshold whose first slow run is among
	// the newest Recent runs of its series an ErrRegression: a change, or a
	// drift whose accumulated slowdown crossed Threshold there.
	CI bool
	// Recent is CI mode's window of newest runs (default DefaultRecent).
	Recent int
	// Changes are the change-point settings (zero: changepoint's defaults).
	Changes changepoint.Settings
	// Width is the width the table fits (zero: table.Width of the output).
	Width int
}

func (o Options) width(w io.Writer) int {
	if o.Width > 0 {
		return o.Width
	}
	return table.Width(w)
}

// A Change is a change point of a series with the runs either side.
type Change struct {
	changepoint.Change
	// Last is the last run before the change, First the first after.
	Last, First store.Point
	// Verdict is "regression" (slower beyond the threshold), "improvement"
	// (faster beyond it) or "change".
	Verdict string
	// Newest is true when First is among the newest Recent runs.
	Newest bool
}

// A Drift is a drift of a series: a stretch of runs that got steadily
// slower or faster, reported once with its slope.
type Drift struct {
	changepoint.Drift
	// First is its first run, Last its last (the newest when it is ongoing).
	First, Last store.Point
	// Verdict is "regression" (slower by more than the threshold over the
	// drift), "improvement" (faster by more) or "drift".
	Verdict string
	// Crossed is the first run at which the drift had moved beyond the
	// threshold (nil when it never did).
	Crossed *store.Point `json:",omitempty"`
	// Newest is true when the drift is ongoing and crossed the threshold
	// within the newest Recent runs.
	Newest bool
}

// An Outlier is a run, or a few consecutive runs, off the series' level
// that came back: a blip, not a change.
type Outlier struct {
	changepoint.Outlier
	// Runs are its runs.
	Runs []store.Point
	// Newest is true when it is among the newest Recent runs (where a change
	// cannot be told from a blip until more runs follow).
	Newest bool
}

// A Series is a store series with its change points, drifts and outliers.
type Series struct {
	store.Series
	Changes  []Change  `json:"changes"`
	Drifts   []Drift   `json:"drifts"`
	Outliers []Outlier `json:"outliers"`
}

// verdict names a relative size against the threshold (slower is larger).
func verdict(size, threshold float64, neutral string) string {
	switch {
	case size > threshold:
		return "regression"
	case size < -threshold:
		return "improvement"
	}
	return neutral
}

// Analyze finds the change points, drifts and outliers of each series.
func Analyze(series []store.Series, o Options) []Series {
	o = o.withDefaults()
	out := make([]Series, len(series))
	for i, s := range series {
		h := Series{Series: s, Changes: []Change{}, Drifts: []Drift{}, Outliers: []Outlier{}}
		n := len(s.Points)
		a := changepoint.AnalyzeRuns(runs(s), o.Changes)
		for _, c := range a.Changes {
			h.Changes = append(h.Changes, Change{Change: c, Last: s.Points[c.Index-1], First: s.Points[c.Index],
				Verdict: verdict(c.Size, o.Threshold, "change"), Newest: c.Index >= n-o.Recent})
		}
		for _, d := range a.Drifts {
			sd := Drift{Drift: d, First: s.Points[d.Start], Last: s.Points[d.Start+d.N-1], Verdict: verdict(d.Size, o.Threshold, "drift")}
			if d.Level != 0 {
				for j := 1; j < d.N; j++ {
					if math.Abs(d.Slope*float64(j)/d.Level) > o.Threshold {
						p := s.Points[d.Start+j]
						sd.Crossed = &p
						sd.Newest = d.Start+d.N == n && d.Start+j >= n-o.Recent
						break
					}
				}
			}
			h.Drifts = append(h.Drifts, sd)
		}
		for _, ol := range a.Outliers {
			h.Outliers = append(h.Outliers, Outlier{Outlier: ol, Runs: s.Points[ol.Index : ol.Index+ol.N], Newest: ol.Index+ol.N > n-o.Recent})
		}
		out[i] = h
	}
	return out
}

// runs returns the series' runs with each one's own noise: the standard
// error of its median from its 95% CI, or below the samples such a CI needs
// 1.2533·CV·median/√N (0, unknown, for one sample or none).
func runs(s store.Series) []changepoint.Run {
	out := make([]changepoint.Run, len(s.Points))
	for i, p := range s.Points {
		r := changepoint.Run{Value: float64(p.Median)}
		if HasCI(p) {
			r.SE = changepoint.SEFromCI(float64(p.CILow), float64(p.CIHigh), p.N)
		} else if p.N >= 2 && p.CV > 0 {
			r.SE = 1.2533 * p.CV * float64(p.Median) / math.Sqrt(float64(p.N))
		}
		out[i] = r
	}
	return out
}

// beyond keeps the findings larger than the threshold (CI mode's report).
func beyond(hs []Series, threshold float64) []Series {
	out := make([]Series, len(hs))
	for i, h := range hs {
		out[i] = Series{Series: h.Series, Changes: []Change{}, Drifts: []Drift{}, Outliers: []Outlier{}}
		for _, c := range h.Changes {
			if math.Abs(c.Size) > threshold {
				out[i].Changes = append(out[i].Changes, c)
			}
		}
		for _, d := range h.Drifts {
			if math.Abs(d.Size) > threshold {
				out[i].Drifts = append(out[i].Drifts, d)
			}
		}
		for _, ol := range h.Outliers {
			if math.Abs(ol.Size) > threshold {
				out[i].Outliers = append(out[i].Outliers, ol)
			}
		}
	}
	return out
}

func (o Options) withDefaults() Options {
	if o.Threshold < 0 {
		o.Threshold = 0
	}
	if o.Recent <= 0 {
		o.Recent = DefaultRecent
	}
	if o.Format == "" {
		o.Format = "table"
	}
	return o
}

// ParseSince reads --since: a date (2006-01-02), an RFC 3339 time, or an age
// before now in days, hours or minutes (30d, 12h, 90m).
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if strings.HasSuffix(s, "d") {
		if n, err := strconv.ParseFloat(strings.TrimSuffix(s, "d"), 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a date (2025-03-01), a time (2025-03-01T12:00:00Z) or an age (30d, 12h)", s)
}

// minSize is the fewest runs a change needs on each side.
func minSize(o Options) int {
	if o.Changes.MinSize > 0 {
		return max(o.Changes.MinSize, 2)
	}
	return changepoint.DefaultMinSize
}
