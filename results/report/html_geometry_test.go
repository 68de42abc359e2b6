package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/internal/pagecheck"
	"github.com/clmeter/clmeter/results"
)

// TestHTMLGeometry loads reports in headless Chromium at 1400 px and fails on
// any overlapping or clipped text, any chart with fewer than two data marks,
// or a page wider than the window: the fixtures' report, and one of real runs
// ('clmeter suite quick --small' and 'suite peaks --small' on PoCL, a
// 2-core VM, 2026-11-25) beside the H200 fixture. Set CLMETER_REPORT_HTML to
// a directory to keep the pages checked.
func TestHTMLGeometry(t *testing.T) {
	browser := pagecheck.Browser()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no /usr/bin/chromium under CI: make deps installs it")
		}
		t.Skip("no headless browser: /usr/bin/chromium is absent (Debian: apt-get install chromium)")
	}
	for _, tc := range []struct {
		name      string
		files     []string
		minCharts int
	}{
		{"fixtures", []string{"../testdata/pocl.json", "../testdata/h200.json"}, 10},
		{"pocl-runs", []string{"../testdata/pocl-quick.json", "../testdata/pocl-peaks.json", "../testdata/h200.json"}, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srcs, errs := results.ReadFiles(tc.files)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var buf bytes.Buffer
			if err := New(srcs).WriteHTML(&buf); err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("CLMETER_REPORT_HTML"); dir != "" {
				os.WriteFile(filepath.Join(dir, tc.name+".html"), buf.Bytes(), 0o644)
			}
			srv := pagecheck.ServeHTML(buf.Bytes())
			defer srv.Close()
			v, err := pagecheck.Check(context.Background(), browser, srv.URL+"/", 1400, 2000, filepath.Join(t.TempDir(), "profile"))
			if err != nil {
				t.Fatal(err)
			}
			if v.Charts < tc.minCharts || v.Texts < 100 {
				t.Errorf("the check saw %d charts (want %d or more) and %d text boxes: did the page render?", v.Charts, tc.minCharts, v.Texts)
			}
			for _, p := range v.Problems {
				t.Error(p)
			}
			t.Logf("%d text boxes, %d charts (data marks %v), %g px wide in %g", v.Texts, v.Charts, v.Marks, v.Width, v.Viewport)
		})
	}
}

// TestPageCheckFinds shows the geometry check can fail: a page with
// overlapping text, text outside its SVG, a one-mark chart, a bar chart of one
// series of two bars (the compute chart of a quick run before it became no
// chart), a time axis in ms beside a median in µs (the distributions' legend
// before it followed the axis), a plot of a quarter of its row, a wide
// table, a run with no CI inside a band drawn down to 0 and a zero-height
// interval (the dashboard's series before missing CIs were left out), and a
// chart of runs whose x ticks repeat a minute with no run number (runs of
// one minute on the dashboard before the ticks carried run numbers), and
// roofline point numbers two by one point and one far from every point
// (numbers stacked up a line at a shared intensity, as the roofline placed
// them on approximate axes), and a table of ratios with no CI or test and
// a host-timed against device-timed ratio unmarked (/compare before it
// gave the CLI's statistics).
func TestPageCheckFinds(t *testing.T) {
	browser := pagecheck.Browser()
	if browser == "" {
		t.Skip("no headless browser")
	}
	page := `<!DOCTYPE html><html><body style="margin:0">
<svg class="chart" width="200" height="100"><rect x="10" y="10" width="20" height="50" fill="#1f77b4"/>
<text x="10" y="50">overlapping one</text><text x="14" y="52">overlapping two</text><text x="180" y="90">clipped label</text></svg>
<figure class="peaks"><svg class="plot" width="200" height="100"><rect x="10" y="10" width="20" height="50" fill="#1f77b4"/>
<rect x="40" y="20" width="20" height="40" fill="#1f77b4"/><line x1="0" y1="5" x2="200" y2="5" stroke="#d62728"/></svg></figure>
<figure><svg class="plot" width="300" height="100"><circle cx="10" cy="10" r="3" fill="#1f77b4"/><circle cx="30" cy="30" r="3" fill="#1f77b4"/>
<text x="100" y="20">time (ms)</text><text x="100" y="60">median 45.4 µs</text></svg></figure>
<div class="plots" style="display:flex"><figure style="width:200px;margin:0"></figure></div>
<svg class="chart trend" width="300" height="120"><path class="band" d="M10 20 L150 20 L290 100 L290 100 L150 100 L10 100 Z" fill="#3b82f6"/>
<rect class="band" x="200" y="40" width="4" height="0" fill="#3b82f6"/>
<a href="/run/1"><circle class="pt" cx="10" cy="30" r="3" fill="#1d4ed8"/></a><a href="/run/2"><circle class="pt noci" data-ci="none" cx="150" cy="30" r="3" fill="#1d4ed8"/></a>
<a href="/run/3"><circle class="pt" cx="290" cy="30" r="3" fill="#1d4ed8"/></a>
<line class="axis" x1="0" y1="100" x2="300" y2="100" stroke="#333"/>
<text x="10" y="115">Nov 28 15:04</text><text x="200" y="115">Nov 28 15:04</text></svg>
<svg class="plot" width="300" height="100"><circle cx="20" cy="50" r="3" fill="#d62728"/><circle cx="200" cy="50" r="3" fill="#d62728"/>
<text class="point-label" x="26" y="54">1</text><text class="point-label" x="26" y="40">2</text><text class="point-label" x="120" y="90">3</text></svg>
<table><thead><tr><th>benchmark</th><th>A median</th><th>B median</th><th>B/A</th></tr></thead>
<tbody><tr><td>copy</td><td>6.1 µs</td><td>15.4 µs <span class="tag">host-timed</span></td><td>2.538</td></tr></tbody></table>
<table><tr><td style="white-space:nowrap">` + strings.Repeat("wide ", 600) + `</td></tr></table></body></html>`
	srv := pagecheck.ServeHTML([]byte(page))
	defer srv.Close()
	v, err := pagecheck.Check(context.Background(), browser, srv.URL+"/", 800, 600, filepath.Join(t.TempDir(), "profile"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, p := range v.Problems {
		kinds[p.Kind] = true
		t.Log(p)
	}
	for _, k := range []string{"overlap", "clipped", "marks", "bars", "units", "narrow", "wide", "ci", "xticks", "label", "ratio"} {
		if !kinds[k] {
			t.Errorf("no %q problem found in %+v", k, v.Problems)
		}
	}
}
