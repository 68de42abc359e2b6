package runner

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
)

// gbps reads the first rate after label in text, in GB/s (GFLOP/s for a
// compute figure): "19.0 GB/s", "18.96 GB/s", "29.6 GFLOP/s".
func gbps(t *testing.T, what, text, label string) float64 {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(label) + `[^0-9]{0,200}?([0-9][0-9.]*)(?:\s|</td><td>)*(M|G|T)(B|FLOP)/s`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s: no %q rate in:\n%s", what, label, text)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v * map[string]float64{"M": 1e-3, "G": 1, "T": 1e3}[m[2]]
}

// TestOnePeakValue renders the quick suite's terminal summary and table,
// 'clmeter report' as text and HTML, and the device profile rebuilt from
// one result file (a PoCL quick run whose peaks/bandwidth-best row, the
// best of the strided and chunked patterns, was below its streams), and
// checks that each shows the same peak bandwidth and fp32 figure: the
// profile's (profile.SetPeakFigures).
func TestOnePeakValue(t *testing.T) {
	t.Setenv("COLUMNS", "250")
	path := filepath.Join("testdata", "quick.json")
	read := func() *results.File {
		f, err := results.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := read()
	p := profile.Rebuild([]results.Source{{Path: path, File: f}})
	if len(p) != 1 || p[0].Bandwidth == nil || p[0].Compute["float"] == nil {
		t.Fatalf("profile %+v", p)
	}
	wantBW, wantFP := p[0].Bandwidth.Value, p[0].Compute["float"].Value
	prof := strings.Join(p[0].Lines(), "\n")

	bs := read().Benchmarks
	profile.SetPeakFigures(bs)
	var suite bytes.Buffer
	writeSuiteReport(&suite, bs, 200)
	summary := suite.String()[strings.Index(suite.String(), "Summary:"):]

	var text, html, stderr bytes.Buffer
	if err := Report(context.Background(), ReportOptions{Files: []string{path}, Format: "table"}, &text, &stderr); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.html")
	if err := Report(context.Background(), ReportOptions{Files: []string{path}, Format: "html", Output: out}, &html, &stderr); err != nil {
		t.Fatal(err)
	}
	page := readText(t, out)
	for _, c := range []struct {
		what, text, label string
		want              float64
	}{
		{"profile", prof, "global memory bandwidth", wantBW},
		{"summary", summary, "peak bandwidth", wantBW},
		{"suite table", suite.String(), "peaks/bandwidth-best", wantBW},
		{"report", text.String(), profile.PeakBandwidthName, wantBW},
		{"HTML report", page, profile.PeakBandwidthName, wantBW},
		{"profile", prof, "float compute", wantFP},
		{"summary", summary, "peak fp32", wantFP},
		{"report", text.String(), profile.PeakComputeName("float"), wantFP},
		{"HTML report", page, profile.PeakComputeName("float"), wantFP},
	} {
		if got := gbps(t, c.what, c.text, c.label); math.Abs(got-c.want) > 0.006*c.want {
			t.Errorf("%s: %s %.3g, the profile's %.3g", c.what, c.label, got, c.want)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
