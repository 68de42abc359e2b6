package report

import (
	"bytes"
	"context"
	"github.com/clmeter/clmeter/results"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// cacheBenchFile is a result file as 'clmeter cache bench small large' writes
// it: five modes per program, each with the parts of its time to first result.
func cacheBenchFile() results.File {
	f := results.NewFile(results.ToolInfo{Name: "clmeter", Version: "test"}, []string{"clmeter", "cache", "bench"})
	dev := results.DeviceInfo{Name: "pthread-cpu", Platform: "Portable Computing Language"}
	for pi, prog := range []string{"small", "large"} {
		for mi, mode := range cacheModeOrder {
			b := results.Benchmark{Name: prog + "/" + mode, Kind: "cache-bench", Device: dev, Params: map[string]string{}, Figures: []results.Figure{}}
			b.SetParam("program", prog)
			b.SetParam("mode", mode)
			for i, part := range TTFRParts {
				b.Figures = append(b.Figures, results.Figure{Name: part, Value: float64((pi+1)*(5-mi)*(i+1)) * 10, Unit: "ms"})
			}
			b.Figures = append(b.Figures, results.Figure{Name: "speedup over cold", Value: 1.5, Unit: "x"})
			b.Extra = map[string]any{"verdict": "verdict on pthread-cpu (pocl): both caches 1.6x faster"}
			f.Benchmarks = append(f.Benchmarks, b)
		}
	}
	return f
}

func TestTTFRCharts(t *testing.T) {
	f := cacheBenchFile()
	// A mode listed out of order lands in its place.
	f.Benchmarks[0], f.Benchmarks[3] = f.Benchmarks[3], f.Benchmarks[0]
	r := New([]results.Source{{Path: "cache.json", File: &f}})
	cs := TTFRCharts(r.Figures, false)
	if len(cs) != 2 {
		t.Fatalf("%d charts, want one per program (2)", len(cs))
	}
	for _, c := range cs {
		if strings.Join(c.Modes, ",") != strings.Join(cacheModeOrder, ",") {
			t.Errorf("%s: modes %q, want %q", c.Program, c.Modes, cacheModeOrder)
		}
	}
	c := cs[0]
	if c.Program != "large" && c.Program != "small" {
		t.Fatalf("program %q", c.Program)
	}
	scale := 1.0
	if c.Program == "large" {
		scale = 2
	}
	// cold's build (part 3) is (5-0)*3*10 ms times the program's scale.
	if got := c.MS[2][0]; got != 150*scale {
		t.Errorf("%s cold build = %v ms, want %v", c.Program, got, 150*scale)
	}
	svg, err := TTFRPlot(c)
	if err != nil {
		t.Fatal(err)
	}
	// The title is the page's caption (the plots draw no titles).
	for _, want := range []string{"cold", "both caches", "program build", "first launch"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("stacked bar lacks %q", want)
		}
	}
	if v := CacheVerdicts(r.Sources); len(v) != 1 || !strings.Contains(v[0], "1.6x") {
		t.Errorf("verdicts %q, want the one line once", v)
	}
}

// TestTTFRHTMLInChromium renders a cache-bench report in headless Chromium: the
// DOM must hold a drawn stacked bar per program and the verdict.
func TestTTFRHTMLInChromium(t *testing.T) {
	f := cacheBenchFile()
	var buf bytes.Buffer
	if err := New([]results.Source{{Path: "cache.json", File: &f}}).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if n := strings.Count(html, `<figure class="ttfr">`); n != 2 || !strings.Contains(html, "verdict on pthread-cpu") || strings.Contains(html, "Plot errors") {
		t.Fatalf("HTML has %d stacked bars (want 2), or lacks the verdict, or has plot errors", n)
	}
	chromium := ""
	for _, c := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(c); err == nil {
			chromium = c
			break
		}
	}
	if chromium == "" {
		t.Skip("no headless browser: /usr/bin/chromium is absent (Debian: apt-get install chromium)")
	}
	path := filepath.Join(t.TempDir(), "cache.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", chromium, err, stderr.String())
	}
	figs := regexp.MustCompile(`(?s)<figure class="ttfr"><svg [^>]*>(.*?)</svg>`).FindAllStringSubmatch(string(out), -1)
	if len(figs) != 2 {
		t.Fatalf("the DOM holds %d stacked bars, want 2", len(figs))
	}
	for i, m := range figs {
		// Five modes x four parts: at least twenty filled bar paths.
		if n := strings.Count(m[1], "<path"); n < 20 || !strings.Contains(m[1], "both caches") {
			t.Errorf("stacked bar %d has %d paths (want >= 20) or lacks its mode labels", i, n)
		}
	}
}
