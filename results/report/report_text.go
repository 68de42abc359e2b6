package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// Write renders r in format (one of Formats; "html" goes through
// WriteHTML).
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "table":
		return r.WriteTable(w)
	case "markdown", "md":
		return r.WriteMarkdown(w)
	case "csv":
		return r.WriteCSV(w)
	case "json":
		return r.WriteJSON(w)
	case "benchfmt":
		return r.WriteBenchfmt(w)
	case "html":
		return r.WriteHTML(w)
	}
	return fmt.Errorf("unknown report format %q (want %s or html)", format, strings.Join(Formats, ", "))
}

// tableColumns are the columns of the table, markdown and CSV renderings.
var tableColumns = []string{"benchmark", "params", "device", "n", "median", "95% CI", "min", "mean", "CV", "bandwidth", "compute", "bound", "warnings"}

// The table's columns are those of tableColumns (the last, warnings, holds
// the numbers of the notes in WriteTable).

func (r *Report) cells(row Row) []string {
	m := row.M()
	s := m.Summary
	warn := ""
	if n := len(m.AllWarnings()); n > 0 {
		warn = strconv.Itoa(n)
	}
	return []string{
		row.Key.Name, row.Key.Params, r.deviceText(row.Key.Device, row.Where),
		strconv.Itoa(s.N), FormatDuration(s.Median), ciText(s), FormatDuration(s.Min), FormatDuration(s.Mean),
		s.CVText(), bandwidth(m), compute(m), orDash(boundText(row.Bench)), warn,
	}
}

func (r *Report) geomeanCells(g Geomean) []string {
	c := make([]string, len(tableColumns))
	c[0] = "geomean"
	c[1] = "(" + units.Count(g.N, "benchmark") + ")"
	c[2] = r.deviceText(g.Device, g.Where)
	c[4] = FormatDuration(g.Median)
	c[9] = formatRate(g.GBPerSecond, "B")
	return c
}

// WriteTable writes the report as a table fitted to the width of w (see
// table.Width), followed by the figures, the failed benchmarks and the
// warnings as numbered notes.
func (r *Report) WriteTable(w io.Writer) error { return r.WriteTableWidth(w, table.Width(w)) }

// WriteTableWidth is WriteTable fitted to width columns.
func (r *Report) WriteTableWidth(w io.Writer, width int) error {
	ew := &table.ErrWriter{W: w}
	fmt.Fprintf(ew, "%s, %s sampled", units.Count(len(r.Sources), "file"), units.Count(len(r.Rows), "benchmark"))
	if len(r.Failed) > 0 {
		fmt.Fprintf(ew, ", %d failed", len(r.Failed))
	}
	fmt.Fprintln(ew)
	t := table.New(
		table.Column{Header: "benchmark", Wrap: true},
		table.Column{Header: "params", Wrap: true},
		table.Column{Header: "device", Wrap: true},
		table.Column{Header: "n", Right: true},
		table.Column{Header: "median", Right: true},
		table.Column{Header: "95% CI", Short: "CI", Right: true, Drop: 2},
		table.Column{Header: "min", Right: true, Drop: 5},
		table.Column{Header: "mean", Right: true, Drop: 6},
		table.Column{Header: "CV", Right: true, Drop: 1},
		table.Column{Header: "throughput", Wrap: true},
		table.Column{Header: "bound", Wrap: true, Drop: 4},
		table.Column{Header: "notes", Wrap: true},
	)
	// One device: named above the table, not in every row.
	devs := map[string]bool{}
	for _, row := range r.Rows {
		devs[r.deviceText(row.Key.Device, row.Where)] = true
	}
	if len(r.Rows) > 0 {
		fmt.Fprintln(ew)
		if len(devs) == 1 {
			table.WriteWrapped(ew, "on "+r.deviceText(r.Rows[0].Key.Device, r.Rows[0].Where), width, "", "  ")
		}
		prev := ""
		for _, row := range r.Rows {
			c := r.cells(row)
			c[1] = results.ParamsBeyondName(row.Bench)
			if len(devs) == 1 {
				c[2] = ""
			}
			if c[0] == prev {
				c[0] = `"`
			} else {
				prev = c[0]
			}
			var ids []int
			for _, ws := range row.M().AllWarnings() {
				ids = append(ids, t.Note(BenchLabel(row.Key)+": "+ws))
			}
			c[len(c)-1] = table.Refs(ids)
			t.Row(throughputCell(c)...)
		}
		for _, g := range r.Geomeans {
			c := r.geomeanCells(g)
			if len(devs) == 1 {
				c[2] = ""
			}
			t.Row(throughputCell(c)...)
		}
	}
	if len(r.Failed) > 0 {
		for _, row := range r.Failed {
			t.Note(fmt.Sprintf("failed: %s [%s]: %s", BenchLabel(row.Key), r.deviceText(row.Key.Device, row.Where), row.Bench.Error))
		}
	}
	if len(r.Rows) > 0 || len(r.Failed) > 0 {
		t.Write(ew, width)
	}
	if len(r.Figures) > 0 {
		fmt.Fprintln(ew, "\nfigures:")
		ft := table.New(table.Column{Header: "benchmark", Wrap: true}, table.Column{Header: "device", Wrap: true, Drop: 1},
			table.Column{Header: "figure", Wrap: true}, table.Column{Header: "value"}, table.Column{Header: "note", Wrap: true})
		ft.Indent = "  "
		for _, f := range r.Figures {
			ft.Row(BenchLabel(f.Key), r.deviceText(f.Key.Device, f.Where), f.Figure.Name, units.Quantity(f.Figure.Value, f.Figure.Unit), f.Figure.Note)
		}
		ft.Write(ew, width)
	}
	return ew.Err
}

// throughputCell joins the bandwidth and compute cells of tableColumns into
// the text table's one throughput cell.
func throughputCell(c []string) []string {
	var rates []string
	for _, s := range c[9:11] {
		if s != "" && s != "-" {
			rates = append(rates, s)
		}
	}
	return slices.Concat(c[:9], []string{strings.Join(rates, ", ")}, c[11:])
}

// BenchLabel names a benchmark for people: its name and parameters.
func BenchLabel(k results.Key) string {
	if k.Params == "" {
		return k.Name
	}
	return k.Name + " " + k.Params
}

// scaledFigure writes a figure's value and unit as people read them
// (units.Quantity): 6.454e+04 GFLOP/s becomes "64.5", "TFLOP/s".
func scaledFigure(v float64, unit string) (string, string) {
	q := units.Quantity(v, unit)
	if i := strings.LastIndexByte(q, ' '); i > 0 {
		return q[:i], q[i+1:]
	}
	return q, ""
}

// WriteMarkdown writes the report as GitHub-flavoured markdown tables.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &table.ErrWriter{W: w}
	fmt.Fprintln(ew, "## Results")
	fmt.Fprintln(ew)
	for _, s := range r.Sources {
		h := s.File.Host
		fmt.Fprintln(ew, units.Escape(fmt.Sprintf("- `%s`: %s/%s, %s, %d cores, host %s, %s, %s %s", s.Path, h.OS, h.Arch, orDash(h.CPU), h.Cores,
			orDash(h.Hostname), s.File.Created.Format("2006-01-02 15:04:05Z07:00"), s.File.Tool.Name, s.File.Tool.Version)))
	}
	if len(r.Rows) > 0 {
		fmt.Fprintln(ew)
		MarkdownRow(ew, tableColumns)
		seps := make([]string, len(tableColumns))
		for i := range seps {
			seps[i] = "---"
			if i >= 3 && i != len(seps)-1 {
				seps[i] = "--:"
			}
		}
		MarkdownRow(ew, seps)
		for _, row := range r.Rows {
			MarkdownRow(ew, r.cells(row))
		}
		for _, g := range r.Geomeans {
			c := r.geomeanCells(g)
			c[0] = "**geomean**"
			MarkdownRow(ew, c)
		}
	}
	if len(r.Figures) > 0 {
		fmt.Fprintln(ew, "\n### Figures")
		fmt.Fprintln(ew)
		MarkdownRow(ew, []string{"benchmark", "device", "figure", "value", "unit", "note"})
		MarkdownRow(ew, []string{"---", "---", "---", "--:", "---", "---"})
		for _, f := range r.Figures {
			v, u := scaledFigure(f.Figure.Value, f.Figure.Unit)
			MarkdownRow(ew, []string{BenchLabel(f.Key), r.deviceText(f.Key.Device, f.Where), f.Figure.Name, v, u, f.Figure.Note})
		}
	}
	if len(r.Failed) > 0 {
		fmt.Fprintln(ew, "\n### Failed")
		fmt.Fprintln(ew)
		for _, row := range r.Failed {
			fmt.Fprintf(ew, "- %s [%s]: %s\n", mdEscape(BenchLabel(row.Key)), mdEscape(r.deviceText(row.Key.Device, row.Where)), mdEscape(row.Bench.Error))
		}
	}
	first := true
	for _, row := range r.Rows {
		for _, ws := range row.M().AllWarnings() {
			if first {
				fmt.Fprintln(ew, "\n### Warnings")
				fmt.Fprintln(ew)
				first = false
			}
			fmt.Fprintf(ew, "- %s [%s]: %s\n", mdEscape(BenchLabel(row.Key)), mdEscape(r.deviceText(row.Key.Device, row.Where)), mdEscape(ws))
		}
	}
	return ew.Err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;").Replace(units.Escape(s))
}

// MarkdownRow writes cells as a markdown table row, escaping "|" in every
// cell but bold ones and alignment markers, and every cell through
// units.Escape.
func MarkdownRow(w io.Writer, cells []string) {
	esc := make([]string, len(cells))
	for i, c := range cells {
		c = units.Escape(c)
		if strings.HasPrefix(c, "**") || c == "---" || c == "--:" {
			esc[i] = c
		} else {
			esc[i] = strings.ReplaceAll(c, "|", `\|`)
		}
	}
	fmt.Fprintln(w, "| "+strings.Join(esc, " | ")+" |")
}

// csvColumns are the CSV header. A "benchmark" record is a sampled benchmark,
// "geomean" a device's geomean, "figure" one Figure, "failed" a failed
// benchmark. device is the device's label (its name, and the short form of
// its key when another device has that name), device_key its whole key.
// Times are integer nanoseconds, rates in GB/s and G<ops_unit>/s.
var csvColumns = []string{"record", "file", "host", "name", "params", "device", "device_key", "kind", "timer", "n",
	"median_ns", "min_ns", "max_ns", "mean_ns", "geomean_ns", "stddev_ns", "cv", "ci_low_ns", "ci_high_ns",
	"outliers", "gb_per_s", "gops_per_s", "ops_unit", "stop_reason", "verdict", "percent_of_roof", "intensity",
	"figure", "value", "unit", "warnings", "error"}

// A CSVWriter is a csv.Writer whose Write shows every field through
// units.Escape: a CSV read on a terminal shows no control character or
// bidirectional override from a file or the store raw.
type CSVWriter struct{ *csv.Writer }

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) CSVWriter { return CSVWriter{csv.NewWriter(w)} }

// Write writes one record, each field escaped.
func (c CSVWriter) Write(record []string) error {
	esc := make([]string, len(record))
	for i, f := range record {
		esc[i] = units.Escape(f)
	}
	return c.Writer.Write(esc)
}

// WriteCSV writes one record per benchmark, geomean, figure and failure.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := NewCSVWriter(w)
	cw.Write(csvColumns)
	idx := map[string]int{}
	for i, c := range csvColumns {
		idx[c] = i
	}
	rec := func(kv map[string]string) {
		out := make([]string, len(csvColumns))
		for k, v := range kv {
			out[idx[k]] = v
		}
		cw.Write(out)
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, row := range r.Rows {
		m := row.M()
		s := m.Summary
		kv := map[string]string{"record": "benchmark", "file": row.Source, "host": row.Host, "name": row.Key.Name,
			"params": row.Key.Params, "device": row.Key.Device, "device_key": row.DeviceKey, "kind": row.Bench.Kind, "timer": string(m.Timer),
			"n": strconv.Itoa(s.N), "median_ns": i64(int64(s.Median)), "min_ns": i64(int64(s.Min)), "max_ns": i64(int64(s.Max)),
			"mean_ns": i64(int64(s.Mean)), "geomean_ns": i64(int64(s.Geomean)), "stddev_ns": i64(int64(s.Stddev)),
			"cv": f(s.CV), "ci_low_ns": i64(int64(s.CI95Low)), "ci_high_ns": i64(int64(s.CI95High)),
			"outliers": strconv.Itoa(s.Outliers), "stop_reason": string(m.StopReason),
			"warnings": strings.Join(m.AllWarnings(), "; ")}
		if t := m.Throughput; t != nil {
			kv["gb_per_s"], kv["gops_per_s"], kv["ops_unit"] = f(t.GBPerSecond), f(t.GOpsPerSecond), t.OpsUnit
		}
		if rl := row.Bench.Roofline; rl != nil {
			kv["verdict"], kv["percent_of_roof"], kv["intensity"] = rl.Verdict, f(rl.PercentOfRoof), f(rl.IntensityFLOPPerByte)
		}
		rec(kv)
	}
	for _, g := range r.Geomeans {
		rec(map[string]string{"record": "geomean", "host": g.Host, "device": g.Device, "device_key": g.DeviceKey, "n": strconv.Itoa(g.N),
			"median_ns": i64(int64(g.Median)), "gb_per_s": f(g.GBPerSecond)})
	}
	for _, fr := range r.Figures {
		rec(map[string]string{"record": "figure", "file": fr.Source, "host": fr.Host, "name": fr.Key.Name,
			"params": fr.Key.Params, "device": fr.Key.Device, "device_key": fr.DeviceKey, "kind": fr.Kind, "figure": fr.Figure.Name,
			"value": f(fr.Figure.Value), "unit": fr.Figure.Unit, "warnings": fr.Figure.Note})
	}
	for _, row := range r.Failed {
		rec(map[string]string{"record": "failed", "file": row.Source, "host": row.Host, "name": row.Key.Name,
			"params": row.Key.Params, "device": row.Key.Device, "device_key": row.DeviceKey, "kind": row.Bench.Kind, "error": row.Bench.Error})
	}
	cw.Flush()
	return cw.Error()
}

// ReportJSON is the --format json rendering of a Report. Lists are never null.
type ReportJSON struct {
	Files      []ReportFileJSON `json:"files"`
	Benchmarks []ReportRowJSON  `json:"benchmarks"`
	Geomeans   []GeomeanJSON    `json:"geomeans"`
	Figures    []FigureJSON     `json:"figures"`
	Failed     []FailedJSON     `json:"failed"`
}

// ReportFileJSON is one file of a ReportJSON.
type ReportFileJSON struct {
	Path    string           `json:"path"`
	Created string           `json:"created"`
	Tool    results.ToolInfo `json:"tool"`
	Host    results.HostInfo `json:"host"`
}

// ReportRowJSON is one sampled benchmark of a ReportJSON.
type ReportRowJSON struct {
	File       string            `json:"file"`
	Host       string            `json:"host"`
	Name       string            `json:"name"`
	Kind       string            `json:"kind"`
	Params     map[string]string `json:"params"`
	ParamOrder []string          `json:"param_order"`
	// Device is the device's label (Row.Key.Device), DeviceKey its key.
	Device     string              `json:"device"`
	DeviceKey  string              `json:"device_key"`
	Timer      measure.Timer       `json:"timer"`
	Summary    measure.Summary     `json:"summary"`
	Throughput *measure.Throughput `json:"throughput,omitempty"`
	StopReason measure.StopReason  `json:"stop_reason"`
	Warnings   []string            `json:"warnings"`
	// Roofline is the benchmark's roofline placement, when it has one.
	Roofline *results.Roofline `json:"roofline,omitempty"`
}

// GeomeanJSON is one Geomean of a ReportJSON.
type GeomeanJSON struct {
	Device      string  `json:"device"`
	DeviceKey   string  `json:"device_key"`
	Host        string  `json:"host"`
	N           int     `json:"n"`
	MedianNS    int64   `json:"median_ns"`
	GBPerSecond float64 `json:"gb_per_s"`
}

// FigureJSON is one figure of a ReportJSON.
type FigureJSON struct {
	File      string         `json:"file"`
	Name      string         `json:"name"`
	Params    string         `json:"params"`
	Device    string         `json:"device"`
	DeviceKey string         `json:"device_key"`
	Figure    results.Figure `json:"figure"`
}

// FailedJSON is one failed benchmark of a ReportJSON.
type FailedJSON struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Params    string `json:"params"`
	Device    string `json:"device"`
	DeviceKey string `json:"device_key"`
	Error     string `json:"error"`
}

// JSON returns the report as ReportJSON.
func (r *Report) JSON() ReportJSON {
	out := ReportJSON{Files: []ReportFileJSON{}, Benchmarks: []ReportRowJSON{}, Geomeans: []GeomeanJSON{},
		Figures: []FigureJSON{}, Failed: []FailedJSON{}}
	for _, s := range r.Sources {
		out.Files = append(out.Files, ReportFileJSON{Path: s.Path, Created: s.File.Created.Format("2006-01-02T15:04:05Z07:00"),
			Tool: s.File.Tool, Host: s.File.Host})
	}
	for _, row := range r.Rows {
		b := row.Bench
		m := results.NormalizedResult(b.Measurement)
		params := map[string]string{}
		order := []string{}
		for _, p := range b.OrderedParams() {
			params[p.Name] = p.Value
			order = append(order, p.Name)
		}
		out.Benchmarks = append(out.Benchmarks, ReportRowJSON{File: row.Source, Host: row.Host, Name: b.Name, Kind: b.Kind,
			Params: params, ParamOrder: order, Device: row.Key.Device, DeviceKey: row.DeviceKey, Timer: m.Timer, Summary: m.Summary,
			Throughput: m.Throughput, StopReason: m.StopReason, Warnings: m.AllWarnings(), Roofline: b.Roofline})
	}
	for _, g := range r.Geomeans {
		out.Geomeans = append(out.Geomeans, GeomeanJSON{Device: g.Device, DeviceKey: g.DeviceKey, Host: g.Host, N: g.N, MedianNS: int64(g.Median), GBPerSecond: g.GBPerSecond})
	}
	for _, f := range r.Figures {
		out.Figures = append(out.Figures, FigureJSON{File: f.Source, Name: f.Key.Name, Params: f.Key.Params, Device: f.Key.Device, DeviceKey: f.DeviceKey, Figure: f.Figure})
	}
	for _, row := range r.Failed {
		out.Failed = append(out.Failed, FailedJSON{File: row.Source, Name: row.Key.Name, Params: row.Key.Params, Device: row.Key.Device, DeviceKey: row.DeviceKey, Error: row.Bench.Error})
	}
	return out
}

// WriteJSON writes the report as indented ReportJSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}
