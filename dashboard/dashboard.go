// Package dashboard is clmeter's web dashboard over a results store: the
// devices and benchmarks stored, each benchmark's trend with confidence bands
// and change points, device-against-device and driver-against-driver
// comparisons, and each run's samples and metadata. It is read-only, draws
// every chart as SVG on the server, and embeds its few static files.
package dashboard

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clmeter/clmeter/history"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/units"
)

//go:embed static templates
var assets embed.FS

// DefaultAddr is where Serve listens unless told otherwise: localhost only.
const DefaultAddr = "127.0.0.1:8080"

// Options say how to serve.
type Options struct {
	// Addr to listen on (default DefaultAddr).
	Addr string
	// Store is the store's location (store.Resolve).
	Store string
	// Threshold is the size beyond which a change is marked a regression or
	// an improvement (default history.DefaultThreshold).
	Threshold float64
	// Public allows an Addr beyond the loopback interface (CheckAddr).
	Public bool
}

// Serve opens the store read-only and serves the dashboard on o.Addr until
// ctx ends. It prints the address on stdout once listening.
func Serve(ctx context.Context, o Options, stdout, stderr io.Writer) error {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	warning, err := CheckAddr(o.Addr, o.Public)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, o.Store, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w (pick another with --addr)", err)
	}
	if warning != "" {
		fmt.Fprintln(stderr, warning)
	}
	h := New(st, o.Threshold)
	h.allowHosts(o.Addr, o.Public)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(stderr, "clmeter serve: ", 0)}
	fmt.Fprintf(stdout, "clmeter: serving %s on http://%s/ (read-only; Ctrl-C stops)\n", st, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return nil
	case err := <-errc:
		return err
	}
}

// A Server is the dashboard's http.Handler over one store.
type Server struct {
	st        *store.Store
	threshold float64
	pages     map[string]*template.Template
	mux       *http.ServeMux
	// hosts are the host names answered (lower case, no port); anyIP
	// answers any IP address too (a public dashboard's).
	hosts map[string]bool
	anyIP bool
}

// New returns the dashboard over st; threshold is the change size marked as a
// regression or an improvement (0: history.DefaultThreshold).
func New(st *store.Store, threshold float64) *Server {
	if threshold <= 0 {
		threshold = history.DefaultThreshold
	}
	s := &Server{st: st, threshold: threshold, pages: map[string]*template.Template{}, mux: http.NewServeMux(), hosts: map[string]bool{}}
	for _, h := range loopbackNames {
		s.hosts[h] = true
	}
	funcs := template.FuncMap{
		"dur":     func(v any) string { return report.FormatDuration(toDuration(v)) },
		"day":     func(t time.Time) string { return t.Format("2006-01-02") },
		"when":    func(t time.Time) string { return t.Format("2006-01-02 15:04") },
		"pct":     func(f float64) string { return fmt.Sprintf("%+.1f%%", f*100) },
		"percent": func(f float64) string { return fmt.Sprintf("%.1f%%", f*100) },
		"rate":    units.Rate,
		"tag":     deviceTag,
		"conf":    confText,
		"commit":  func(p store.Point) string { return shortCommit(p.Labels["commit"]) },
		"bytes":   humanBytes,
	}
	layout := template.Must(template.New("").Funcs(funcs).ParseFS(assets, "templates/layout.html"))
	for _, page := range []string{"index", "bench", "compare", "run", "error", "fleets", "fleet"} {
		t := template.Must(template.Must(layout.Clone()).ParseFS(assets, "templates/"+page+".html"))
		s.pages[page] = t
	}
	static, _ := fs.Sub(assets, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	s.mux.HandleFunc("GET /static/", func(w http.ResponseWriter, r *http.Request) {
		// A path that is not valid UTF-8 (an overlong encoding, a stray byte)
		// names no file: 404, not the file system's 500.
		if !utf8.ValidString(r.URL.Path) || !fs.ValidPath(strings.TrimPrefix(r.URL.Path, "/static/")) {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /bench", s.bench)
	s.mux.HandleFunc("GET /compare", s.compare)
	s.mux.HandleFunc("GET /run/{id}", s.run)
	s.mux.HandleFunc("GET /fleet", s.fleetRuns)
	s.mux.HandleFunc("GET /fleet/{run}", s.fleetRun)
	return s
}

// ServeHTTP serves GET and HEAD only, for its own host names only (421 for
// another): the dashboard never writes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:")
	if !s.knownHost(r) {
		misdirected(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the dashboard is read-only", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

type page struct {
	Title string
	Store string
	Data  any
}

func (s *Server) render(w http.ResponseWriter, status int, name, title string, data any) {
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout", page{Title: title, Store: s.st.String(), Data: data}); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *Server) fail(w http.ResponseWriter, status int, err error) {
	s.render(w, status, "error", http.StatusText(status), err.Error())
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	devs, err := s.st.Devices(r.Context())
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	benches, err := s.st.Benchmarks(r.Context())
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	total := 0
	for _, d := range devs {
		total += d.Results
	}
	s.render(w, http.StatusOK, "index", "Results store", struct {
		Devices    []store.Device
		Benchmarks []store.BenchmarkSummary
		Results    int
	}{devs, benches, total})
}

type seriesView struct {
	history.Series
	Chart template.HTML
	// Tag is "simulator" for a simulator's series.
	Tag string
}

// isSimulator tells a simulator (Oclgrind) by its platform or name: its
// times measure the simulation, not a device.
func isSimulator(platform, name string) bool {
	return strings.Contains(strings.ToLower(platform+" "+name), "oclgrind")
}

func seriesTag(platform, name string) string {
	if isSimulator(platform, name) {
		return "simulator"
	}
	return ""
}

// deviceTag is a stored device's mark: "simulator" or "".
func deviceTag(d store.Device) string { return seriesTag(d.Platform, d.Name) }

type latestRow struct {
	// Which tells Device from others of its name (store.Series.Which).
	Device, Which, Driver, Median, CI, When string
	MedianNS                                int64
	Ratio                                   float64
	ResultID                                int64
	// Tag says why a row is not ranked: "simulator" or "host-timed"; ""
	// for a device-timed run on hardware, the only ones ranked.
	Tag string
}

type latestGroup struct {
	Params string
	Rows   []latestRow
	Chart  template.HTML
}

func (s *Server) bench(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	if name == "" {
		s.fail(w, http.StatusBadRequest, errors.New("which benchmark? /bench?name=triad"))
		return
	}
	since, err := history.ParseSince(r.URL.Query().Get("since"), time.Now())
	if err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	f := store.Filter{Pattern: name, Device: r.URL.Query().Get("device"), Since: since}
	if strings.ContainsAny(name, "*?") {
		f.Pattern = strings.NewReplacer("*", "", "?", "").Replace(name) // a name, never a glob here
		name = f.Pattern
	}
	series, err := s.st.History(r.Context(), f)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	hs := history.Analyze(series, history.Options{Threshold: s.threshold})
	views := make([]seriesView, len(hs))
	for i, h := range hs {
		views[i] = seriesView{Series: h, Chart: s.seriesChart(h), Tag: seriesTag(h.Platform, h.Device)}
	}
	s.render(w, http.StatusOK, "bench", name, struct {
		Name, Device, Since, Threshold string
		Series                         []seriesView
		Latest                         []latestGroup
	}{name, f.Device, r.URL.Query().Get("since"), fmt.Sprintf("%.0f%%", s.threshold*100), views, s.latest(r, hs)})
}

func (s *Server) seriesChart(h history.Series) template.HTML {
	pts := make([]chartPoint, len(h.Points))
	for i, p := range h.Points {
		ci := fmt.Sprintf("[%s, %s]", report.FormatDuration(p.CILow), report.FormatDuration(p.CIHigh))
		if !history.HasCI(p) {
			ci = fmt.Sprintf("(no CI at n=%d)", p.N)
		}
		title := fmt.Sprintf("#%d %s: %s %s", p.ResultID, p.Created.Format("2006-01-02 15:04"), report.FormatDuration(p.Median), ci)
		if c := p.Labels["commit"]; c != "" {
			title += " " + shortCommit(c)
		}
		pts[i] = chartPoint{Y: float64(p.Median), Lo: float64(p.CILow), Hi: float64(p.CIHigh), Href: fmt.Sprintf("/run/%d", p.ResultID), Title: title,
			NoCI: !history.HasCI(p)}
	}
	marks := make([]chartMark, len(h.Changes))
	for i, c := range h.Changes {
		marks[i] = chartMark{At: c.Index, Label: fmt.Sprintf("%+.1f%%", c.Size*100), Class: c.Verdict}
	}
	return trendChart(pts, marks, " runs", runLabels(h.Points), func(v float64) string {
		return report.FormatDuration(time.Duration(v))
	})
}

// runLabels labels runs by their number ("#12", what /run/12 shows) over
// the day ("Mar 4") when they span a week or more, else the day and time
// ("Mar 4 18:00"): runs of one minute are told apart by their numbers.
func runLabels(pts []store.Point) func(i int) []string {
	layout := "Jan 2"
	if len(pts) > 1 && pts[len(pts)-1].Created.Sub(pts[0].Created) < 7*24*time.Hour {
		layout = "Jan 2 15:04"
	}
	return func(i int) []string {
		return []string{fmt.Sprintf("#%d", pts[i].ResultID), pts[i].Created.Format(layout)}
	}
}

// latest groups the newest point of each series by parameters, fastest first.
// Only device-timed runs on hardware are ranked: a simulator's or a
// host-timed run is listed after them, marked, with no ratio and no bar.
func (s *Server) latest(r *http.Request, hs []history.Series) []latestGroup {
	byParams := map[string]*latestGroup{}
	var order []string
	for _, h := range hs {
		g := byParams[h.Params]
		if g == nil {
			g = &latestGroup{Params: h.Params}
			byParams[h.Params] = g
			order = append(order, h.Params)
		}
		p := h.Points[len(h.Points)-1]
		tag := seriesTag(h.Platform, h.Device)
		if tag == "" {
			if res, err := s.st.Result(r.Context(), p.ResultID); err == nil && res.Benchmark.Measurement != nil &&
				res.Benchmark.Measurement.Timer == measure.TimerHost {
				tag = "host-timed"
			}
		}
		g.Rows = append(g.Rows, latestRow{Device: h.Device, Which: h.Which, Driver: h.Driver, Median: report.FormatDuration(p.Median), CI: history.CIText(p),
			When: p.Created.Format("2006-01-02"), MedianNS: int64(p.Median), ResultID: p.ResultID, Tag: tag})
	}
	out := make([]latestGroup, 0, len(order))
	for _, k := range order {
		g := byParams[k]
		if len(g.Rows) < 2 {
			continue // nothing to compare
		}
		sort.SliceStable(g.Rows, func(i, j int) bool {
			a, b := g.Rows[i], g.Rows[j]
			if (a.Tag == "") != (b.Tag == "") {
				return a.Tag == ""
			}
			return a.MedianNS < b.MedianNS
		})
		var bars []bar
		for i := range g.Rows {
			if g.Rows[i].Tag != "" {
				continue
			}
			g.Rows[i].Ratio = float64(g.Rows[i].MedianNS) / float64(max(g.Rows[0].MedianNS, 1))
			label := report.ShortDeviceName(g.Rows[i].Device)
			if g.Rows[i].Which != "" {
				label += " [" + g.Rows[i].Which + "]"
			}
			bars = append(bars, bar{Label: label + " · driver " + g.Rows[i].Driver, Ratio: g.Rows[i].Ratio, Href: fmt.Sprintf("/run/%d", g.Rows[i].ResultID)})
		}
		if len(bars) >= 2 {
			g.Chart = ratioChart(bars)
		}
		out = append(out, *g)
	}
	return out
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.fail(w, http.StatusBadRequest, fmt.Errorf("run %q: want a number", r.PathValue("id")))
		return
	}
	res, err := s.st.Result(r.Context(), id)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	data := struct {
		R      *store.Result
		Params string
		Chart  template.HTML
	}{R: res, Params: results.ParamString(&res.Benchmark)}
	if m := res.Benchmark.Measurement; m != nil && len(m.Samples) > 0 {
		outlier := map[int]bool{}
		for _, i := range m.Summary.OutlierIndexes {
			outlier[i] = true
		}
		pts := make([]chartPoint, len(m.Samples))
		for i, sm := range m.Samples {
			title := fmt.Sprintf("sample %d: %s (%d launches)", i, report.FormatDuration(sm.PerLaunch), sm.Launches)
			if outlier[i] {
				title += ", an outlier"
			}
			pts[i] = chartPoint{Y: float64(sm.PerLaunch), Lo: float64(m.Summary.CI95Low), Hi: float64(m.Summary.CI95High),
				Href: fmt.Sprintf("#sample-%d", i), Title: title, Outlier: outlier[i], NoCI: m.Summary.CI95High <= 0}
		}
		data.Chart = trendChart(pts, nil, "", func(i int) []string { return []string{strconv.Itoa(i)} }, func(v float64) string { return report.FormatDuration(time.Duration(v)) })
	}
	s.render(w, http.StatusOK, "run", res.Benchmark.Name, data)
}
