package report

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// htmlData is what the HTML template renders.
type htmlData struct {
	Title    string
	Sources  []htmlSource
	Devices  []htmlDevice
	Node     *htmlNode
	Header   []string
	Rows     []htmlRow
	Geomeans [][]string
	Sweeps   []htmlPlot
	Dists    []htmlPlot
	Peaks    []htmlPlot
	Roofs    []htmlPlot
	TTFR     []htmlPlot
	Verdicts []string
	Figures  [][]string
	Failed   []string
	Warnings []htmlWarning
	Errors   []string
}

type htmlSource struct{ Path, Desc string }

// htmlDevice is one line of the device legend: the short label the tables
// and charts use, and what it stands for.
type htmlDevice struct{ Label, Name, Desc string }

// htmlNode is the node view's section: the view laid out (peers.Grid),
// and whether it flags a device.
type htmlNode struct {
	peers.Grid
	Slow bool
}

type htmlRow struct {
	Cells []string
	// Warnings counts the row's warnings; WarnID anchors the first.
	Warnings int
	WarnID   string
}

type htmlWarning struct{ ID, Text string }

// figArgs are a figure's class and plot, for the template's "fig".
type figArgs struct {
	Class string
	P     htmlPlot
}

type htmlPlot struct {
	Title  string
	SVG    template.HTML
	Note   string
	Legend []LegendEntry
	// Key is a numbered list under the chart (the roofline's points).
	Key []string
}

// htmlColumns are the HTML table's columns: the text table's, less the
// mean (the distribution plots show it), with the device as its short label.
var htmlColumns = []string{"benchmark", "params", "device", "n", "median", "CI of the median", "min", "CV", "bandwidth", "compute", "bound", "warnings"}

// ShortDeviceName shortens an OpenCL device name for a chart or a table
// column: PoCL's "pthread-" or "cpu-" prefix and its LLVM CPU name
// ("haswell-", "skylake-avx512-") go, and a long name keeps its first words
// up to about 22 characters. A legend beside says what the label stands for.
func ShortDeviceName(name string) string {
	s := strings.TrimSpace(name)
	for _, p := range []string{"pthread-", "cpu-", "basic-"} {
		s = strings.TrimPrefix(s, p)
	}
	if m := llvmCPU.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if r := []rune(s); len(r) > 22 {
		cut := strings.LastIndexByte(string(r[:22]), ' ')
		if cut < 8 {
			s = string(r[:21]) + "…"
		} else {
			s = string(r[:22])[:cut] + "…"
		}
	}
	if s == "" {
		return "unknown device"
	}
	return s
}

// llvmCPU matches PoCL's device names after the prefix: an LLVM CPU name in
// lower case, a dash, then the CPU's own name.
var llvmCPU = regexp.MustCompile(`^[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*-([A-Z].*)$`)

// deviceLabels gives every device (and where) of r a short distinct label:
// its short name (ShortDeviceName), the short form of its key when another
// device has its name (deviceNames), and where it was measured when that
// tells rows apart.
func (r *Report) deviceLabels() (func(device, where string) string, []htmlDevice) {
	type dk struct{ dev, where string }
	type info struct {
		b   *results.Benchmark
		tag string
	}
	infos := map[dk]info{}
	var order []dk
	for _, s := range r.Sources {
		w := ""
		if r.MultiHost {
			w = cmp.Or(s.File.Host.Hostname, "?")
		} else if len(r.Sources) > 1 {
			w = s.Path
		}
		for i := range s.File.Benchmarks {
			b := &s.File.Benchmarks[i]
			k := dk{r.names.key(b).Device, w}
			if _, ok := infos[k]; !ok {
				infos[k] = info{b, r.names.tag(b)}
				order = append(order, k)
			}
		}
	}
	labels := map[dk]string{}
	used := map[string]int{}
	var legend []htmlDevice
	for _, k := range order {
		in := infos[k]
		l := ShortDeviceName(results.DeviceLabel(in.b.Device)) + in.tag
		if k.where != "" {
			w := k.where
			if !r.MultiHost {
				w = strings.TrimSuffix(filepath.Base(w), filepath.Ext(w))
			}
			l += " @" + w
		}
		if n := used[l]; n > 0 {
			used[l]++
			l = fmt.Sprintf("%s (%d)", l, n+1)
		} else {
			used[l] = 1
		}
		labels[k] = l
		desc := legendDesc(in.b.Device)
		if k.where != "" {
			desc += "; " + k.where
		}
		legend = append(legend, htmlDevice{Label: l, Name: results.DeviceLabel(in.b.Device), Desc: desc})
	}
	return func(device, where string) string {
		if l, ok := labels[dk{device, where}]; ok {
			return l
		}
		return ShortDeviceName(device)
	}, legend
}

// legendDesc says what a device of the legend is: its type, platform,
// driver and compute units, then what identifies it: its UUID and PCI
// address, or its fallback key when it has neither.
func legendDesc(d results.DeviceInfo) string {
	cus := ""
	if d.ComputeUnits > 0 {
		cus = strconv.Itoa(d.ComputeUnits) + " compute units"
	}
	desc := strings.Join(nonEmpty(d.Type, d.Platform, "driver "+orDash(d.DriverVersion), cus), ", ")
	var id []string
	if d.UUID != "" {
		id = append(id, "UUID "+d.UUID)
	}
	if d.PCI != "" {
		id = append(id, "PCI "+d.PCI)
	}
	if len(id) == 0 {
		id = append(id, "key "+d.SeriesKey())
	}
	return desc + "; " + strings.Join(id, ", ")
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// htmlGeomeans are the geomean lines of the HTML report: per device, the
// geometric mean of each rate over the rows that have it, one unit family at
// a time (bandwidth; compute per operation unit). Times are not averaged
// across different benchmarks: a launch in µs and a stream in ms have no
// meaningful mean.
func (r *Report) htmlGeomeans(label func(string, string) string) [][]string {
	type k struct{ dev, what string }
	type acc struct {
		log float64
		n   int
	}
	accs := map[k]*acc{}
	var order []k
	for _, row := range r.Rows {
		t := row.M().Throughput
		if t == nil {
			continue
		}
		dev := label(row.Key.Device, row.Where)
		add := func(what string, v float64) {
			if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return
			}
			key := k{dev, what}
			a := accs[key]
			if a == nil {
				a = &acc{}
				accs[key] = a
				order = append(order, key)
			}
			a.log += math.Log(v)
			a.n++
		}
		add("B", t.GBPerSecond)
		add(cmp.Or(t.OpsUnit, "op"), t.GOpsPerSecond)
	}
	slices.SortStableFunc(order, func(a, b k) int { return cmp.Compare(a.dev, b.dev) })
	var out [][]string
	for _, key := range order {
		a := accs[key]
		if a.n < 2 {
			continue
		}
		what := "bandwidth"
		if key.what != "B" {
			what = "compute (" + key.what + "/s)"
		}
		out = append(out, []string{key.dev, what, strconv.Itoa(a.n), units.Rate(math.Exp(a.log/float64(a.n)), key.what)})
	}
	return out
}

// WriteHTML writes the report as one self-contained HTML file: a legend of
// the devices (short labels, used everywhere else), the table, geomeans
// within one unit family, then SVG plots (package svgchart) inline:
// throughput against each swept parameter, rooflines, each device's peaks as
// grouped bars, a stacked bar of the time to first result per cache mode of
// each 'cache bench' program (with the verdicts), and each benchmark's sample
// distribution. Nothing is loaded from elsewhere. A plot that cannot be drawn
// is replaced by its error.
func (r *Report) WriteHTML(w io.Writer) error {
	d := htmlData{Title: "clmeter report", Header: htmlColumns}
	label, devices := r.deviceLabels()
	d.Devices = devices
	if v := r.NodeView; v != nil {
		d.Node = &htmlNode{Grid: v.Grid(), Slow: len(v.Outliers) > 0}
	}
	for _, s := range r.Sources {
		h := s.File.Host
		d.Sources = append(d.Sources, htmlSource{s.Path, fmt.Sprintf("%s/%s, %s, %d cores, host %s, %s, %s %s",
			h.OS, h.Arch, orDash(h.CPU), h.Cores, orDash(h.Hostname), s.File.Created.Format("2006-01-02 15:04:05Z07:00"),
			s.File.Tool.Name, s.File.Tool.Version)})
	}
	d.addRows(r, label)
	d.Geomeans = r.htmlGeomeans(label)
	d.addPlots(r, label)
	d.Verdicts = CacheVerdicts(r.Sources)
	for _, f := range r.Figures {
		v, u := scaledFigure(f.Figure.Value, f.Figure.Unit)
		d.Figures = append(d.Figures, []string{BenchLabel(f.Key), label(f.Key.Device, f.Where), f.Figure.Name, v, u, f.Figure.Note})
	}
	for _, row := range r.Failed {
		d.Failed = append(d.Failed, fmt.Sprintf("%s [%s]: %s", BenchLabel(row.Key), label(row.Key.Device, row.Where), row.Bench.Error))
	}
	return htmlTemplate.Execute(w, d)
}

// addRows adds the table's rows of r and their warnings.
func (d *htmlData) addRows(r *Report, label func(device, where string) string) {
	for i, row := range r.Rows {
		m := row.M()
		s := m.Summary
		hr := htmlRow{Cells: []string{row.Key.Name, row.Key.Params, label(row.Key.Device, row.Where),
			strconv.Itoa(s.N), FormatDuration(s.Median), ciText(s), FormatDuration(s.Min),
			s.CVText(), bandwidth(m), compute(m), orDash(boundText(row.Bench))}}
		for j, ws := range m.AllWarnings() {
			id := fmt.Sprintf("w%d-%d", i, j)
			if j == 0 {
				hr.WarnID = id
			}
			hr.Warnings++
			d.Warnings = append(d.Warnings, htmlWarning{ID: id, Text: fmt.Sprintf("%s [%s]: %s", BenchLabel(row.Key), label(row.Key.Device, row.Where), ws)})
		}
		d.Rows = append(d.Rows, hr)
	}
}

// plotOrErr is a drawn plot, or, when err is not nil, its title with the
// error (also listed at the top of the page).
func (d *htmlData) plotOrErr(title string, svg []byte, err error, note string) htmlPlot {
	if err != nil {
		d.Errors = append(d.Errors, fmt.Sprintf("%s: %v", title, err))
		return htmlPlot{Title: title, Note: "could not draw: " + err.Error()}
	}
	return htmlPlot{Title: title, SVG: template.HTML(svg), Note: note} //nolint:gosec // drawn by svgchart, text escaped
}

// addPlots draws r's sweeps, distributions, rooflines, peaks and times to
// first result.
func (d *htmlData) addPlots(r *Report, label func(device, where string) string) {
	for _, sw := range Sweeps(r.Rows, r.MultiHost) {
		for i := range sw.Series {
			if len(sw.Series[i].Rows) > 0 {
				row := sw.Series[i].Rows[0]
				sw.Series[i].Label = label(row.Key.Device, row.Where)
			}
		}
		svg, err := SweepPlot(sw)
		title := fmt.Sprintf("%s against %s", sw.Name, sw.Param)
		if sw.Fixed != "" {
			title += " (" + sw.Fixed + ")"
		}
		d.Sweeps = append(d.Sweeps, d.plotOrErr(title, svg, err, ""))
	}
	for _, row := range r.Rows {
		svg, err := DistributionPlot(row)
		s := row.M().Summary
		note := fmt.Sprintf("n=%d, median %s, %s, CV %s, stop: %s", s.N, FormatDuration(s.Median), ciText(s), s.CVText(), row.M().StopReason)
		d.Dists = append(d.Dists, d.plotOrErr(BenchLabel(row.Key)+" ["+label(row.Key.Device, row.Where)+"]", svg, err, note))
	}
	for _, rc := range RooflineCharts(r.Rows, r.MultiHost) {
		// RooflineCharts names a chart's device as its rows' device, with
		// "@where" across hosts: find a row of it for its label.
		if i := slices.IndexFunc(r.Rows, func(x Row) bool {
			dev := x.Key.Device
			if r.MultiHost && x.Where != "" {
				dev += " @" + x.Where
			}
			return x.Bench.Roofline != nil && dev == rc.Device
		}); i >= 0 {
			rc.Device = label(r.Rows[i].Key.Device, r.Rows[i].Where)
		}
		svg, err := RooflinePlot(rc)
		hp := d.plotOrErr(rc.Device+": roofline", svg, err, rooflineNote(rc))
		hp.Key = rc.Key()
		d.Roofs = append(d.Roofs, hp)
	}
	for _, pc := range PeakCharts(r.Rows, r.Figures, label) {
		svg, err := PeakPlot(pc)
		hp := d.plotOrErr(pc.Title(), svg, err, "bars: the median rate of each kernel; dashed lines: the suite's peak figures")
		hp.Legend = pc.Legend()
		d.Peaks = append(d.Peaks, hp)
	}
	for _, c := range TTFRCharts(r.Figures, r.MultiHost) {
		svg, err := TTFRPlot(c)
		d.TTFR = append(d.TTFR, d.plotOrErr(c.Program+" ["+c.Device+"]: time to first result", svg, err, "bars: each part's median over fresh processes; labels: the median time to first result"))
	}
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"num":  func(i int) bool { return i >= 3 && i <= 9 },
	"join": strings.Join,
	"dict": func(class string, p htmlPlot) figArgs { return figArgs{class, p} },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.45 "Liberation Sans", Arial, system-ui, sans-serif; margin: 1.5em 2em; color: #222; max-width: 1320px; }
h2 { margin-top: 1.6em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { padding: 0.25em 0.5em; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.dev { white-space: nowrap; }
td.bench { overflow-wrap: anywhere; max-width: 17em; }
td.params { max-width: 16em; }
td.desc, ul.nodekey li, ul.notes li { overflow-wrap: anywhere; }
td.flag { color: #b00020; font-weight: bold; }
tr.geomean td { font-weight: bold; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #e5e7eb; border-radius: 4px; padding: 0.5em; flex: 1 1 560px; max-width: 720px; box-sizing: border-box; }
figure svg.plot { width: 100%; height: auto; display: block; }
figcaption { font-size: 13px; color: #444; }
figcaption .title { font-weight: 600; color: #222; display: block; margin-bottom: 0.2em; }
ul.legend { list-style: none; padding: 0; margin: 0.3em 0; display: flex; flex-wrap: wrap; gap: 0.3em 1em; }
ul.legend li { display: inline-flex; align-items: center; gap: 0.35em; }
.swatch { display: inline-block; width: 12px; height: 12px; }
.swatch.line { height: 0; width: 18px; border-top: 2px solid; }
.swatch.dashed { border-top-style: dashed; }
ol.key { margin: 0.3em 0; padding-left: 1.8em; }
.warn { color: #8a5300; }
.err { color: #b00020; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<ul>{{range .Sources}}<li><code>{{.Path}}</code>: {{.Desc}}</li>{{end}}</ul>
{{if .Devices}}<h2>Devices</h2>
<table id="devices"><thead><tr><th>label</th><th>device</th><th>what it is</th></tr></thead><tbody>
{{range .Devices}}<tr><td class="dev">{{.Label}}</td><td>{{.Name}}</td><td class="desc">{{.Desc}}</td></tr>
{{end}}</tbody></table>{{end}}
{{with .Node}}<h2>Devices side by side</h2>
<p>The node view: one row per benchmark, one column per device (the key below says which is which); a figure marked {{.Mark}} is worse than the median of its peers of the same model by more than the tolerance, outside its noise.</p>
<table id="nodeview"><thead><tr><th>benchmark</th><th>unit</th>{{range .Devices}}<th class="num">{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td class="bench">{{.Benchmark}}</td><td>{{.Unit}}</td>{{range .Cells}}<td class="num{{if .Flagged}} flag{{end}}">{{.Text}}{{if .Flagged}} {{$.Node.Mark}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>
<ul class="nodekey">{{range .Keys}}<li>{{.}}</li>{{end}}</ul>
<ul class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
<p class="summary{{if .Slow}} err{{end}}"><strong>{{.Summary}}</strong></p>{{end}}
{{define "fig"}}<figure class="{{.Class}}">{{.P.SVG}}<figcaption><span class="title">{{.P.Title}}</span>{{if .P.Legend}}<ul class="legend">{{range .P.Legend}}<li><span class="swatch{{if .Line}} line{{end}}{{if .Dashed}} dashed{{end}}" style="{{if .Line}}border-color{{else}}background{{end}}: {{.Colour}}"></span>{{.Label}}</li>{{end}}</ul>{{end}}{{if .P.Key}}<ol class="key">{{range .P.Key}}<li>{{.}}</li>{{end}}</ol>{{end}}{{.P.Note}}</figcaption></figure>
{{end}}
{{if .Peaks}}<h2>Device peaks</h2>
<div class="plots">{{range .Peaks}}{{template "fig" (dict "peaks" .)}}{{end}}</div>{{end}}
{{if .Roofs}}<h2>Roofline</h2>
<p>Each benchmark at its arithmetic intensity and achieved rate, under the device's measured ceilings (the profile clmeter keeps per device and driver): the bandwidth roof rises to the ridge point, the compute roof is flat after it. The table's bound column gives each verdict.</p>
<div class="plots">{{range .Roofs}}{{template "fig" (dict "roofline" .)}}{{end}}</div>{{end}}
{{if .Sweeps}}<h2>Throughput against a swept parameter</h2>
<div class="plots">{{range .Sweeps}}{{template "fig" (dict "sweep" .)}}{{end}}</div>{{end}}
{{if .Rows}}
<h2>Results</h2>
<table id="results">
<thead><tr>{{range $i, $h := .Header}}<th{{if num $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range $i, $c := .Cells}}<td class="{{if eq $i 0}}bench{{else if eq $i 1}}params{{else if eq $i 2}}dev{{else if num $i}}num{{end}}">{{$c}}</td>{{end}}<td class="num">{{if .Warnings}}<a href="#{{.WarnID}}">{{.Warnings}}</a>{{end}}</td></tr>
{{end}}</tbody>
</table>
{{end}}
{{if .Geomeans}}<h2>Geomeans</h2>
<p>Per device, the geometric mean of one rate over the benchmarks that have it; rates of different units are never mixed, and times of different benchmarks are not averaged.</p>
<table id="geomeans"><thead><tr><th>device</th><th>rate</th><th class="num">benchmarks</th><th class="num">geomean</th></tr></thead><tbody>
{{range .Geomeans}}<tr class="geomean">{{range $i, $c := .}}<td{{if ge $i 2}} class="num"{{else if eq $i 0}} class="dev"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody></table>{{end}}
{{if .TTFR}}<h2>Binary cache: time to first result</h2>
<ul class="verdict">{{range .Verdicts}}<li>{{.}}</li>{{end}}</ul>
<div class="plots">{{range .TTFR}}{{template "fig" (dict "ttfr" .)}}{{end}}</div>{{end}}
{{if .Dists}}<h2>Sample distributions</h2>
<p>Box: quartiles, whiskers at 1.5 IQR; dots: every sample, in the order taken (left to right); lines: minimum, median, mean.</p>
<div class="plots">{{range .Dists}}{{template "fig" (dict "dist" .)}}{{end}}</div>{{end}}
{{if .Figures}}<h2>Figures</h2>
<table id="figures"><thead><tr><th>benchmark</th><th>device</th><th>figure</th><th class="num">value</th><th>unit</th><th>note</th></tr></thead>
<tbody>{{range .Figures}}<tr>{{range $i, $c := .}}<td{{if eq $i 3}} class="num"{{else if eq $i 1}} class="dev"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody></table>{{end}}
{{if .Failed}}<h2>Failed</h2><ul class="err">{{range .Failed}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2>Warnings</h2><ul class="warn">{{range .Warnings}}<li id="{{.ID}}">{{.Text}}</li>{{end}}</ul>{{end}}
{{if .Errors}}<h2>Plot errors</h2><ul class="err">{{range .Errors}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))
