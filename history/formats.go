package history

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/units"
)

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
	SizeLow      float64 `json:"size_ci95_low"`
	SizeHigh     float64 `json:"size_ci95_high"`
	Test         string  `json:"test"`
	Noise        string  `json:"noise"`
	NoiseSigma   float64 `json:"noise_sigma_ns"`
	Versus       string  `json:"versus,omitempty"`
	NoiseNote    string  `json:"noise_note,omitempty"`
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
	Versus        string  `json:"versus,omitempty"`
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
	DeviceKey string        `json:"device_key"`
	Which     string        `json:"which,omitempty"`
	Driver    string        `json:"driver"`
	Platform  string        `json:"platform"`
	Points    []jsonPoint   `json:"points"`
	Changes   []jsonChange  `json:"changes"`
	Drifts    []jsonDrift   `json:"drifts"`
	Outliers  []jsonOutlier `json:"outliers"`
}

func toJSONPoint(p store.Point) jsonPoint {
	jp := jsonPoint{ResultID: p.ResultID, UploadID: p.UploadID, Created: p.Created, Median: int64(p.Median), N: p.N, CV: p.CV, Valid: p.Valid, Labels: p.Labels}
	if HasCI(p) {
		jp.CILow, jp.CIHigh, jp.CILevel = int64(p.CILow), int64(p.CIHigh), 0.95
	}
	return jp
}

func writeJSON(w io.Writer, hs []Series) error {
	out := make([]jsonSeries, len(hs))
	for i, h := range hs {
		js := jsonSeries{Benchmark: h.Benchmark, Params: h.Params, Device: h.Device, DeviceKey: h.DeviceKey, Which: h.Which, Driver: h.Driver, Platform: h.Platform,
			Points: make([]jsonPoint, len(h.Points)), Changes: []jsonChange{}, Drifts: []jsonDrift{}, Outliers: []jsonOutlier{}}
		for j, p := range h.Points {
			js.Points[j] = toJSONPoint(p)
		}
		for _, c := range h.Changes {
			js.Changes = append(js.Changes, jsonChange{c.Index, c.Last.ResultID, c.First.ResultID, c.Before.Median, c.After.Median,
				c.Before.N, c.After.N, c.Size, c.PValue, c.Confidence, c.Verdict, c.Newest, c.SizeLow, c.SizeHigh, c.Test, c.Noise, c.NoiseSigma, c.Versus, c.NoiseNote})
		}
		for _, d := range h.Drifts {
			js.Drifts = append(js.Drifts, jsonDrift{d.Start, d.N, d.First.ResultID, d.Last.ResultID, d.Level, d.Slope, d.Slope / math.Abs(d.Level),
				d.Size, d.PValue, d.Verdict, d.Start+d.N == len(h.Points), d.Newest, d.Versus})
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

// writeMarkdown writes each series as a markdown table of its runs (or,
// with regressions, of its change points).
func writeMarkdown(w io.Writer, hs []Series, regressions bool) error {
	esc := func(s string) string { return strings.ReplaceAll(units.Escape(s), "|", `\|`) }
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
				row(run(c.Last), run(c.First), report.FormatDuration(time.Duration(c.Before.Median))+" -> "+report.FormatDuration(time.Duration(c.After.Median)),
					fmt.Sprintf("%+.1f%%", c.Size*100), confidence(c.PValue), c.Verdict)
			}
			if why := explain(h); len(why) > 0 {
				fmt.Fprintln(w)
				for _, l := range why {
					fmt.Fprintln(w, "- "+strings.TrimSpace(l))
				}
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
			row(fmt.Sprintf("#%d", p.ResultID), p.Created.Format("2006-01-02 15:04"), report.FormatDuration(p.Median), ci, strconv.Itoa(p.N), store.LabelText(p.Labels))
		}
	}
	return nil
}

func writeCSV(w io.Writer, hs []Series) error {
	cw := report.NewCSVWriter(w)
	cw.Write([]string{"benchmark", "params", "device", "driver", "result_id", "upload_id", "created", "median_ns", "ci95_low_ns", "ci95_high_ns", "n", "cv", "labels"})
	for _, h := range hs {
		for _, p := range h.Points {
			lo, hi := "", "" // no interval: fewer samples than 95% needs
			if HasCI(p) {
				lo, hi = strconv.FormatInt(int64(p.CILow), 10), strconv.FormatInt(int64(p.CIHigh), 10)
			}
			cw.Write([]string{h.Benchmark, h.Params, h.DeviceLabel(), h.Driver, strconv.FormatInt(p.ResultID, 10), strconv.FormatInt(p.UploadID, 10),
				p.Created.Format(time.RFC3339), strconv.FormatInt(int64(p.Median), 10), lo, hi, strconv.Itoa(p.N), strconv.FormatFloat(p.CV, 'g', 6, 64), store.LabelList(p.Labels)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeChangesCSV(w io.Writer, hs []Series) error {
	cw := report.NewCSVWriter(w)
	cw.Write([]string{"benchmark", "params", "device", "driver", "last_before_result_id", "first_after_result_id", "first_after_created",
		"before_median_ns", "after_median_ns", "size", "p_value", "verdict", "newest", "kind", "runs"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	id := func(p store.Point) string { return strconv.FormatInt(p.ResultID, 10) }
	for _, h := range hs {
		before := func(i int) string {
			if i == 0 {
				return ""
			}
			return id(h.Points[i-1])
		}
		for _, c := range h.Changes {
			cw.Write([]string{h.Benchmark, h.Params, h.DeviceLabel(), h.Driver, id(c.Last), id(c.First), c.First.Created.Format(time.RFC3339),
				f(c.Before.Median), f(c.After.Median), strconv.FormatFloat(c.Size, 'g', 6, 64), strconv.FormatFloat(c.PValue, 'g', 3, 64), c.Verdict,
				strconv.FormatBool(c.Newest), "step", strconv.Itoa(c.After.N)})
		}
		for _, d := range h.Drifts {
			cw.Write([]string{h.Benchmark, h.Params, h.DeviceLabel(), h.Driver, before(d.Start), id(d.First), d.First.Created.Format(time.RFC3339),
				f(d.Level), f(d.Level + d.Slope*float64(d.N-1)), strconv.FormatFloat(d.Size, 'g', 6, 64), strconv.FormatFloat(d.PValue, 'g', 3, 64), d.Verdict,
				strconv.FormatBool(d.Newest), "drift", strconv.Itoa(d.N)})
		}
		for _, ol := range h.Outliers {
			cw.Write([]string{h.Benchmark, h.Params, h.DeviceLabel(), h.Driver, before(ol.Index), id(ol.Runs[0]), ol.Runs[0].Created.Format(time.RFC3339),
				f(ol.Level), strconv.FormatInt(int64(ol.Runs[0].Median), 10), strconv.FormatFloat(ol.Size, 'g', 6, 64), "", "outlier",
				strconv.FormatBool(ol.Newest), "outlier", strconv.Itoa(ol.N)})
		}
	}
	cw.Flush()
	return cw.Error()
}
