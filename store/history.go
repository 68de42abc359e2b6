package store

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/changepoint"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
)

// ErrRegression is returned (wrapped) by WriteHistory in CI mode when a
// series slowed down beyond the threshold at its newest runs.
var ErrRegression = errors.New("regression")

// DefaultThreshold is the CLI's default size (relative) a change must exceed
// to be called a regression or an improvement: 5%.
const DefaultThreshold = 0.05

// DefaultRecent is the default number of newest runs within which CI mode
// looks for a regression's first slow run.
const DefaultRecent = 5

// HistoryOptions say what WriteHistory shows.
type HistoryOptions struct {
	Filter Filter
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

func (o HistoryOptions) width(w io.Writer) int {
	if o.Width > 0 {
		return o.Width
	}
	return table.Width(w)
}

// A SeriesChange is a change point of a series with the runs either side.
type SeriesChange struct {
	changepoint.Change
	// Last is the last run before the change, First the first after.
	Last, First Point
	// Verdict is "regression" (slower beyond the threshold), "improvement"
	// (faster beyond it) or "change".
	Verdict string
	// Newest is true when First is among the newest Recent runs.
	Newest bool
}

// A SeriesDrift is a drift of a series: a stretch of runs that got steadily
// slower or faster, reported once with its slope.
type SeriesDrift struct {
	changepoint.Drift
	// First is its first run, Last its last (the newest when it is ongoing).
	First, Last Point
	// Verdict is "regression" (slower by more than the threshold over the
	// drift), "improvement" (faster by more) or "drift".
	Verdict string
	// Crossed is the first run at which the drift had moved beyond the
	// threshold (nil when it never did).
	Crossed *Point `json:",omitempty"`
	// Newest is true when the drift is ongoing and crossed the threshold
	// within the newest Recent runs.
	Newest bool
}

// A SeriesOutlier is a run, or a few consecutive runs, off the series' level
// that came back: a blip, not a change.
type SeriesOutlier struct {
	changepoint.Outlier
	// Runs are its runs.
	Runs []Point
	// Newest is true when it is among the newest Recent runs (where a change
	// cannot be told from a blip until more runs follow).
	Newest bool
}

// A SeriesHistory is a series with its change points, drifts and outliers.
type SeriesHistory struct {
	Series
	Changes  []SeriesChange  `json:"changes"`
	Drifts   []SeriesDrift   `json:"drifts"`
	Outliers []SeriesOutlier `json:"outliers"`
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
func Analyze(series []Series, o HistoryOptions) []SeriesHistory {
	o = o.withDefaults()
	out := make([]SeriesHistory, len(series))
	for i, s := range series {
		h := SeriesHistory{Series: s, Changes: []SeriesChange{}, Drifts: []SeriesDrift{}, Outliers: []SeriesOutlier{}}
		n := len(s.Points)
		a := changepoint.Analyze(s.Medians(), o.Changes)
		for _, c := range a.Changes {
			h.Changes = append(h.Changes, SeriesChange{Change: c, Last: s.Points[c.Index-1], First: s.Points[c.Index],
				Verdict: verdict(c.Size, o.Threshold, "change"), Newest: c.Index >= n-o.Recent})
		}
		for _, d := range a.Drifts {
			sd := SeriesDrift{Drift: d, First: s.Points[d.Start], Last: s.Points[d.Start+d.N-1], Verdict: verdict(d.Size, o.Threshold, "drift")}
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
			h.Outliers = append(h.Outliers, SeriesOutlier{Outlier: ol, Runs: s.Points[ol.Index : ol.Index+ol.N], Newest: ol.Index+ol.N > n-o.Recent})
		}
		out[i] = h
	}
	return out
}

// beyond keeps the findings larger than the threshold (CI mode's report).
func beyond(hs []SeriesHistory, threshold float64) []SeriesHistory {
	out := make([]SeriesHistory, len(hs))
	for i, h := range hs {
		out[i] = SeriesHistory{Series: h.Series, Changes: []SeriesChange{}, Drifts: []SeriesDrift{}, Outliers: []SeriesOutlier{}}
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

func (o HistoryOptions) withDefaults() HistoryOptions {
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

// WriteHistory queries the store and writes the history (or, with
// Regressions, the change points) in o.Format. In CI mode it returns an error
// wrapping ErrRegression, after writing, when a series regressed beyond the
// threshold at its newest runs.
func WriteHistory(ctx context.Context, st *Store, o HistoryOptions, w io.Writer) error {
	o = o.withDefaults()
	series, err := st.History(ctx, o.Filter)
	if err != nil {
		return st.explain(err)
	}
	var hs []SeriesHistory
	if o.Regressions || o.CI || o.Format == "json" {
		hs = Analyze(series, o)
		if o.CI {
			hs = beyond(hs, o.Threshold)
		}
	} else {
		hs = make([]SeriesHistory, len(series))
		for i, s := range series {
			hs[i] = SeriesHistory{Series: s, Changes: []SeriesChange{}}
		}
	}
	switch o.Format {
	case "json":
		err = writeHistoryJSON(w, hs)
	case "markdown", "md":
		err = writeHistoryMarkdown(w, hs, o.Regressions)
	case "csv":
		if o.Regressions {
			err = writeChangesCSV(w, hs)
		} else {
			err = writeHistoryCSV(w, hs)
		}
	case "table":
		if len(hs) == 0 {
			_, err = fmt.Fprintf(w, "no results match in %s\n", st)
		} else if o.Regressions {
			err = writeChangesTable(w, hs, o, o.width(w))
		} else {
			err = writeHistoryTable(w, hs, o.width(w))
		}
	default:
		return fmt.Errorf("--format %q is not one of: table, json, csv, markdown, md", o.Format)
	}
	if err != nil {
		return err
	}
	if o.CI {
		var bad []string
		for _, h := range hs {
			for _, c := range h.Changes {
				if c.Verdict == "regression" && c.Newest {
					bad = append(bad, fmt.Sprintf("%s %+.1f%%", h.Key(), c.Size*100))
				}
			}
			for _, d := range h.Drifts {
				if d.Verdict == "regression" && d.Newest {
					bad = append(bad, fmt.Sprintf("%s drifting %+.2f%%/run since %s (%+.1f%%)", h.Key(), d.Slope/d.Level*100, run(d.First), d.Size*100))
				}
			}
		}
		if len(bad) > 0 {
			return fmt.Errorf("%w beyond %s in the newest %d runs: %s", ErrRegression, percent(o.Threshold), o.Recent, strings.Join(bad, "; "))
		}
	}
	return nil
}

type jsonPoint struct {
	ResultID int64             `json:"result_id"`
	UploadID int64             `json:"upload_id"`
	Created  time.Time         `json:"created"`
	Median   int64             `json:"median_ns"`
	CILow    int64             `json:"ci_low_ns,omitempty"`
	CIHigh   int64             `json:"ci_high_ns,omitempty"`
	CILevel  float64           `json:"ci_level,omitempty"`
	N        int               `json:"n"`
	CV       float64           `json:"cv"`
	Valid    *bool             `json:"valid,omitempty"`
	Labels   map[string]string `json:"labels"`
}

type jsonChange struct {
	Index        int     `json:"index"`
	LastBefore   int64   `json:"last_before_result_id"`
	FirstAfter   int64   `json:"first_after_result_id"`
	BeforeMedian float64 `json:"before_median_ns"`
	AfterMedian  float64 `json:"after_median_ns"`
	BeforeRuns   int     `json:"before_runs"`
	AfterRuns    int     `json:"after_runs"`
	Size         float64 `json:"size"`
	PValue       float64 `json:"p_value"`
	Confidence   float64 `json:"confidence"`
	Verdict      string  `json:"verdict"`
	Newest       bool    `json:"newest"`
}

type jsonDrift struct {
	Start         int     `json:"start_index"`
	Runs          int     `json:"runs"`
	FirstResult   int64   `json:"first_result_id"`
	LastResult    int64   `json:"last_result_id"`
	StartMedian   float64 `json:"start_median_ns"`
	SlopePerRun   float64 `json:"slope_ns_per_run"`
	RelativeSlope float64 `json:"relative_slope_per_run"`
	Size          float64 `json:"size"`
	PValue        float64 `json:"p_value"`
	Verdict       string  `json:"verdict"`
	Ongoing       bool    `json:"ongoing"`
	Newest        bool    `json:"newest"`
}

type jsonOutlier struct {
	Index     int     `json:"index"`
	Runs      int     `json:"runs"`
	ResultIDs []int64 `json:"result_ids"`
	Level     float64 `json:"level_ns"`
	Size      float64 `json:"size"`
	Newest    bool    `json:"newest"`
}

type jsonSeries struct {
	Benchmark string        `json:"benchmark"`
	Params    string        `json:"params"`
	Device    string        `json:"device"`
	Driver    string        `json:"driver"`
	Platform  string        `json:"platform"`
	Points    []jsonPoint   `json:"points"`
	Changes   []jsonChange  `json:"changes"`
	Drifts    []jsonDrift   `json:"drifts"`
	Outliers  []jsonOutlier `json:"outliers"`
}

func toJSONPoint(p Point) jsonPoint {
	jp := jsonPoint{ResultID: p.ResultID, UploadID: p.UploadID, Created: p.Created, Median: int64(p.Median), N: p.N, CV: p.CV, Valid: p.Valid, Labels: p.Labels}
	if hasCI(p) {
		jp.CILow, jp.CIHigh, jp.CILevel = int64(p.CILow), int64(p.CIHigh), 0.95
	}
	return jp
}

func writeHistoryJSON(w io.Writer, hs []SeriesHistory) error {
	out := make([]jsonSeries, len(hs))
	for i, h := range hs {
		js := jsonSeries{Benchmark: h.Benchmark, Params: h.Params, Device: h.Device, Driver: h.Driver, Platform: h.Platform,
			Points: make([]jsonPoint, len(h.Points)), Changes: []jsonChange{}, Drifts: []jsonDrift{}, Outliers: []jsonOutlier{}}
		for j, p := range h.Points {
			js.Points[j] = toJSONPoint(p)
		}
		for _, c := range h.Changes {
			js.Changes = append(js.Changes, jsonChange{c.Index, c.Last.ResultID, c.First.ResultID, c.Before.Median, c.After.Median,
				c.Before.N, c.After.N, c.Size, c.PValue, c.Confidence, c.Verdict, c.Newest})
		}
		for _, d := range h.Drifts {
			js.Drifts = append(js.Drifts, jsonDrift{d.Start, d.N, d.First.ResultID, d.Last.ResultID, d.Level, d.Slope, d.Slope / math.Abs(d.Level),
				d.Size, d.PValue, d.Verdict, d.Start+d.N == len(h.Points), d.Newest})
		}
		for _, ol := range h.Outliers {
			jo := jsonOutlier{Index: ol.Index, Runs: ol.N, Level: ol.Level, Size: ol.Size, Newest: ol.Newest}
			for _, p := range ol.Runs {
				jo.ResultIDs = append(jo.ResultIDs, p.ResultID)
			}
			js.Outliers = append(js.Outliers, jo)
		}
		out[i] = js
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeHistoryMarkdown writes each series as a markdown table of its runs (or,
// with regressions, of its change points).
func writeHistoryMarkdown(w io.Writer, hs []SeriesHistory, regressions bool) error {
	esc := strings.NewReplacer("|", `\|`).Replace
	row := func(cells ...string) {
		for i := range cells {
			cells[i] = esc(cells[i])
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "### %s\n\n", esc(h.Key()))
		if regressions {
			row("last before", "first after", "median", "change", "p", "verdict")
			row("---", "---", "---", "--:", "---", "---")
			for _, c := range h.Changes {
				row(run(c.Last), run(c.First), results.FormatDuration(time.Duration(c.Before.Median))+" -> "+results.FormatDuration(time.Duration(c.After.Median)),
					fmt.Sprintf("%+.1f%%", c.Size*100), confidence(c.PValue), c.Verdict)
			}
			continue
		}
		row("run", "started", "median", "95% CI", "n", "labels")
		row("--:", "---", "--:", "--:", "--:", "---")
		for _, p := range h.Points {
			ci := CIText(p)
			if ci == "" {
				ci = "-"
			}
			row(fmt.Sprintf("#%d", p.ResultID), p.Created.Format("2006-01-02 15:04"), results.FormatDuration(p.Median), ci, strconv.Itoa(p.N), LabelText(p.Labels))
		}
	}
	return nil
}

func writeHistoryCSV(w io.Writer, hs []SeriesHistory) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"benchmark", "params", "device", "driver", "result_id", "upload_id", "created", "median_ns", "ci95_low_ns", "ci95_high_ns", "n", "cv", "labels"})
	for _, h := range hs {
		for _, p := range h.Points {
			lo, hi := "", "" // no interval: fewer samples than 95% needs
			if hasCI(p) {
				lo, hi = strconv.FormatInt(int64(p.CILow), 10), strconv.FormatInt(int64(p.CIHigh), 10)
			}
			cw.Write([]string{h.Benchmark, h.Params, h.Device, h.Driver, strconv.FormatInt(p.ResultID, 10), strconv.FormatInt(p.UploadID, 10),
				p.Created.Format(time.RFC3339), strconv.FormatInt(int64(p.Median), 10), lo, hi, strconv.Itoa(p.N), strconv.FormatFloat(p.CV, 'g', 6, 64), fullLabels(p.Labels)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeChangesCSV(w io.Writer, hs []SeriesHistory) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"benchmark", "params", "device", "driver", "last_before_result_id", "first_after_result_id", "first_after_created",
		"before_median_ns", "after_median_ns", "size", "p_value", "verdict", "newest", "kind", "runs"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	id := func(p Point) string { return strconv.FormatInt(p.ResultID, 10) }
	for _, h := range hs {
		before := func(i int) string {
			if i == 0 {
				return ""
			}
			return id(h.Points[i-1])
		}
		for _, c := range h.Changes {
			cw.Write([]string{h.Benchmark, h.Params, h.Device, h.Driver, id(c.Last), id(c.First), c.First.Created.Format(time.RFC3339),
				f(c.Before.Median), f(c.After.Median), strconv.FormatFloat(c.Size, 'g', 6, 64), strconv.FormatFloat(c.PValue, 'g', 3, 64), c.Verdict,
				strconv.FormatBool(c.Newest), "step", strconv.Itoa(c.After.N)})
		}
		for _, d := range h.Drifts {
			cw.Write([]string{h.Benchmark, h.Params, h.Device, h.Driver, before(d.Start), id(d.First), d.First.Created.Format(time.RFC3339),
				f(d.Level), f(d.Level + d.Slope*float64(d.N-1)), strconv.FormatFloat(d.Size, 'g', 6, 64), strconv.FormatFloat(d.PValue, 'g', 3, 64), d.Verdict,
				strconv.FormatBool(d.Newest), "drift", strconv.Itoa(d.N)})
		}
		for _, ol := range h.Outliers {
			cw.Write([]string{h.Benchmark, h.Params, h.Device, h.Driver, before(ol.Index), id(ol.Runs[0]), ol.Runs[0].Created.Format(time.RFC3339),
				f(ol.Level), strconv.FormatInt(int64(ol.Runs[0].Median), 10), strconv.FormatFloat(ol.Size, 'g', 6, 64), "", "outlier",
				strconv.FormatBool(ol.Newest), "outlier", strconv.Itoa(ol.N)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func fullLabels(l map[string]string) string {
	return joinLabels(l, ";", nil)
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

func minSize(o HistoryOptions) int {
	if o.Changes.MinSize > 0 {
		return max(o.Changes.MinSize, 2)
	}
	return changepoint.DefaultMinSize
}
