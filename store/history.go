package store

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/changepoint"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
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

// run names a point for people: "#12 2025-03-01 12:00 abc1234".
func run(p Point) string {
	s := fmt.Sprintf("#%d %s", p.ResultID, p.Created.Format("2006-01-02 15:04"))
	if c := p.Labels["commit"]; c != "" {
		s += " " + short(c)
	}
	return s
}

func short(commit string) string {
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}

// LabelText joins labels as "k=v k=v", sorted, commits shortened.
func LabelText(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := l[k]
		if k == "commit" {
			v = short(v)
		}
		parts[i] = k + "=" + v
	}
	return strings.Join(parts, " ")
}

// CIText writes a point's interval as "±1.2%" of its median; "" when the
// point has none (fewer samples than a 95% interval needs).
func CIText(p Point) string {
	if !hasCI(p) {
		return ""
	}
	half := float64(p.CIHigh-p.CILow) / 2 / float64(p.Median)
	return "±" + units.Percent(half)
}

// hasCI: a stored interval is a 95% one only with enough samples (points
// stored before intervals were left out below that carry a narrower one).
func hasCI(p Point) bool {
	return p.Median > 0 && p.CIHigh > 0 && p.N >= measure.CISamples(0.95)
}

func writeHistoryTable(w io.Writer, hs []SeriesHistory, width int) error {
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		table.WriteWrapped(w, fmt.Sprintf("%s  (%d runs)", h.Key(), len(h.Points)), width, "", "  ")
		t := table.New(
			table.Column{Header: "RUN", Right: true},
			table.Column{Header: "STARTED"},
			table.Column{Header: "MEDIAN", Right: true},
			table.Column{Header: "95% CI", Short: "CI", Right: true, Drop: 2},
			table.Column{Header: "N", Right: true, Drop: 1},
			table.Column{Header: "VS PREVIOUS", Short: "VS PREV", Wrap: true},
			table.Column{Header: "LABELS", Wrap: true, Drop: 3},
		)
		t.Indent = "  "
		for j, p := range h.Points {
			vs := ""
			if j > 0 && h.Points[j-1].Median > 0 {
				vs = units.Percent(float64(p.Median)/float64(h.Points[j-1].Median) - 1)
				if !strings.HasPrefix(vs, "-") {
					vs = "+" + vs
				}
			}
			if p.Valid != nil && !*p.Valid {
				vs += " INVALID"
			}
			ci := CIText(p)
			if ci == "" {
				ci = "-"
			}
			t.Row(fmt.Sprintf("#%d", p.ResultID), p.Created.Format("2006-01-02 15:04"), results.FormatDuration(p.Median), ci,
				fmt.Sprint(p.N), vs, LabelText(p.Labels))
		}
		if err := t.Write(w, width); err != nil {
			return err
		}
	}
	return nil
}

func writeChangesTable(w io.Writer, hs []SeriesHistory, o HistoryOptions, width int) error {
	tw := table.New(table.Column{Header: "BENCHMARK", Wrap: true}, table.Column{Header: "DEVICE", Wrap: true},
		table.Column{Header: "DRIVER", Wrap: true, Drop: 3}, table.Column{Header: "KIND"}, table.Column{Header: "LAST BEFORE", Short: "BEFORE", Wrap: true, Drop: 1},
		table.Column{Header: "FIRST AFTER", Short: "AFTER", Wrap: true}, table.Column{Header: "MEDIAN", Wrap: true},
		table.Column{Header: "CHANGE", Right: true}, table.Column{Header: "P"}, table.Column{Header: "VERDICT"})
	total := 0
	for _, h := range hs {
		total += len(h.Changes) + len(h.Drifts) + len(h.Outliers)
	}
	if total == 0 {
		what := "no change points, drifts or outliers"
		if o.CI {
			what += fmt.Sprintf(" beyond %s", percent(o.Threshold))
		}
		_, err := fmt.Fprintf(w, "%s in %d series (a change needs at least %d runs on each side)\n", what, len(hs), minSize(o))
		return err
	}
	changes, drifts, outliers, series, regressions, newest := 0, 0, 0, 0, 0, 0
	dur := func(v float64) string { return results.FormatDuration(time.Duration(v)) }
	for _, h := range hs {
		if len(h.Changes)+len(h.Drifts)+len(h.Outliers) > 0 {
			series++
		}
		name := h.Benchmark
		if h.Params != "" {
			name += " " + h.Params
		}
		row := func(kind, last, first, median, change, conf, verdict string) {
			tw.Row(name, h.Device, h.Driver, kind, last, first, median, change, conf, verdict)
		}
		for _, c := range h.Changes {
			changes++
			verdict := c.Verdict
			if c.Verdict == "regression" {
				regressions++
				if c.Newest {
					newest++
				}
			}
			if c.Newest {
				verdict += " (newest runs)"
			}
			row("step", run(c.Last), run(c.First), dur(c.Before.Median)+" -> "+dur(c.After.Median), fmt.Sprintf("%+.1f%%", c.Size*100), confidence(c.PValue), verdict)
		}
		for _, d := range h.Drifts {
			drifts++
			verdict := d.Verdict
			if d.Verdict == "regression" {
				regressions++
				if d.Newest {
					newest++
				}
			}
			if d.Newest {
				verdict += " (crossed in the newest runs)"
			} else if d.Start+d.N == len(h.Points) {
				verdict += " (ongoing)"
			}
			last := "(first run)"
			if d.Start > 0 {
				last = run(h.Points[d.Start-1])
			}
			end := d.Level + d.Slope*float64(d.N-1)
			row("drift", last, run(d.First)+fmt.Sprintf(" (%d runs)", d.N), dur(d.Level)+" -> "+dur(end),
				fmt.Sprintf("%+.1f%% (%+.2f%%/run)", d.Size*100, d.Slope/math.Abs(d.Level)*100), confidence(d.PValue), verdict)
		}
		for _, ol := range h.Outliers {
			outliers++
			verdict := "outlier"
			if ol.N > 1 {
				verdict = fmt.Sprintf("outlier (%d runs, came back)", ol.N)
			}
			if ol.Newest {
				verdict = "outlier (newest runs: a change needs more runs)"
			}
			last := "(first run)"
			if ol.Index > 0 {
				last = run(h.Points[ol.Index-1])
			}
			row("outlier", last, run(ol.Runs[0]), dur(ol.Level)+" -> "+results.FormatDuration(ol.Runs[0].Median), fmt.Sprintf("%+.1f%%", ol.Size*100), "", verdict)
		}
	}
	if err := tw.Write(w, width); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d change(s), %d drift(s), %d outlier(s) in %d of %d series; %d regression(s) beyond %s, %d in the newest %d runs\n",
		changes, drifts, outliers, series, len(hs), regressions, percent(o.Threshold), newest, o.Recent)
	return err
}

// percent writes a threshold as "5.0%".
func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// confidence writes the change's p-value as a statistician would ("p < 0.001").
func confidence(p float64) string { return units.PValue(p) }

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
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + l[k]
	}
	return strings.Join(parts, ";")
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
