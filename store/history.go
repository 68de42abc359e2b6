package store

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// DefaultThreshold is the default size (relative) a change must exceed to be
// called a regression or an improvement: 5%.
const DefaultThreshold = 0.05

// DefaultRecent is the default number of newest runs within which CI mode
// looks for a regression's first slow run.
const DefaultRecent = 5

// HistoryOptions say what WriteHistory shows.
type HistoryOptions struct {
	Filter Filter
	// Format is "table" (default), "json", "csv" or "markdown" ("md").
	Format string
	// Regressions shows the change points of each series instead of its runs.
	Regressions bool
	// Threshold is the relative size beyond which a change is a regression
	// (slower) or an improvement (faster); default DefaultThreshold.
	Threshold float64
	// CI makes a regression beyond Threshold whose first slow run is among
	// the newest Recent runs of its series an ErrRegression.
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

// A SeriesHistory is a series with its change points.
type SeriesHistory struct {
	Series
	Changes []SeriesChange `json:"changes"`
}

// Analyze finds the change points of each series.
func Analyze(series []Series, o HistoryOptions) []SeriesHistory {
	o = o.withDefaults()
	out := make([]SeriesHistory, len(series))
	for i, s := range series {
		out[i] = SeriesHistory{Series: s, Changes: []SeriesChange{}}
		for _, c := range changepoint.Detect(s.Medians(), o.Changes) {
			sc := SeriesChange{Change: c, Last: s.Points[c.Index-1], First: s.Points[c.Index], Verdict: "change",
				Newest: c.Index >= len(s.Points)-o.Recent}
			switch {
			case c.Size > o.Threshold:
				sc.Verdict = "regression"
			case c.Size < -o.Threshold:
				sc.Verdict = "improvement"
			}
			out[i].Changes = append(out[i].Changes, sc)
		}
	}
	return out
}

func (o HistoryOptions) withDefaults() HistoryOptions {
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
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
		}
		if len(bad) > 0 {
			return fmt.Errorf("%w beyond %.1f%% in the newest %d runs: %s", ErrRegression, o.Threshold*100, o.Recent, strings.Join(bad, "; "))
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
		table.Column{Header: "DRIVER", Wrap: true, Drop: 3}, table.Column{Header: "LAST BEFORE", Short: "BEFORE", Wrap: true, Drop: 1},
		table.Column{Header: "FIRST AFTER", Short: "AFTER", Wrap: true}, table.Column{Header: "MEDIAN", Wrap: true},
		table.Column{Header: "CHANGE", Right: true}, table.Column{Header: "P"}, table.Column{Header: "VERDICT"})
	total := 0
	for _, h := range hs {
		total += len(h.Changes)
	}
	if total == 0 {
		_, err := fmt.Fprintf(w, "no change points in %d series (a change needs at least %d runs on each side)\n", len(hs), minSize(o))
		return err
	}
	changes, series, regressions, newest := 0, 0, 0, 0
	for _, h := range hs {
		if len(h.Changes) > 0 {
			series++
		}
		for _, c := range h.Changes {
			changes++
			name := h.Benchmark
			if h.Params != "" {
				name += " " + h.Params
			}
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
			change := fmt.Sprintf("%+.1f%%", c.Size*100)
			tw.Row(name, h.Device, h.Driver, run(c.Last), run(c.First),
				results.FormatDuration(time.Duration(c.Before.Median))+" -> "+results.FormatDuration(time.Duration(c.After.Median)),
				change, confidence(c.PValue), verdict)
		}
	}
	if err := tw.Write(w, width); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d change(s) in %d of %d series; %d regression(s) beyond %.1f%%, %d in the newest %d runs\n",
		changes, series, len(hs), regressions, o.Threshold*100, newest, o.Recent)
	return err
}

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

type jsonSeries struct {
	Benchmark string       `json:"benchmark"`
	Params    string       `json:"params"`
	Device    string       `json:"device"`
	Driver    string       `json:"driver"`
	Platform  string       `json:"platform"`
	Points    []jsonPoint  `json:"points"`
	Changes   []jsonChange `json:"changes"`
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
			Points: make([]jsonPoint, len(h.Points)), Changes: []jsonChange{}}
		for j, p := range h.Points {
			js.Points[j] = toJSONPoint(p)
		}
		for _, c := range h.Changes {
			js.Changes = append(js.Changes, jsonChange{c.Index, c.Last.ResultID, c.First.ResultID, c.Before.Median, c.After.Median,
				c.Before.N, c.After.N, c.Size, c.PValue, c.Confidence, c.Verdict, c.Newest})
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
		"before_median_ns", "after_median_ns", "size", "p_value", "verdict", "newest"})
	for _, h := range hs {
		for _, c := range h.Changes {
			cw.Write([]string{h.Benchmark, h.Params, h.Device, h.Driver, strconv.FormatInt(c.Last.ResultID, 10), strconv.FormatInt(c.First.ResultID, 10),
				c.First.Created.Format(time.RFC3339), strconv.FormatFloat(c.Before.Median, 'f', 0, 64), strconv.FormatFloat(c.After.Median, 'f', 0, 64),
				strconv.FormatFloat(c.Size, 'g', 6, 64), strconv.FormatFloat(c.PValue, 'g', 3, 64), c.Verdict, strconv.FormatBool(c.Newest)})
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
