package report

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func writeFixtureHTML(t *testing.T) (string, []byte) {
	t.Helper()
	r := New(readFixtures(t))
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, buf.Bytes()
}

// The fixtures make one sweep (triad against size, two devices), seven
// distributions and two rooflines (one a device); its suite figures are
// table lines (a peaks suite's sampled kernels make grouped charts:
// TestPeakCharts).
const fixtureSVGs = 1 + 7 + 2

func TestHTMLSelfContained(t *testing.T) {
	_, html := writeFixtureHTML(t)
	s := string(html)
	if n := strings.Count(s, "<svg "); n != fixtureSVGs {
		t.Errorf("%d <svg> elements, want %d", n, fixtureSVGs)
	}
	for _, bad := range []string{"<?xml", "<script src", "<link ", "http://", "https://", "Plot errors"} {
		if bad == "http://" {
			// Only the SVG namespaces may name a URL.
			s2 := strings.ReplaceAll(strings.ReplaceAll(s, `xmlns="http://www.w3.org/2000/svg"`, ""), `xmlns:xlink="http://www.w3.org/1999/xlink"`, "")
			if strings.Contains(s2, bad) {
				t.Errorf("HTML refers to %s outside the SVG namespaces", bad)
			}
			continue
		}
		if strings.Contains(s, bad) {
			t.Errorf("HTML holds %q", bad)
		}
	}
	for _, want := range []string{`class="sweep"`, `class="dist"`, `class="roofline"`, "NVIDIA H200 @gpu-7: roofline", "AMD EPYC 7B13 @ci-1",
		"bandwidth 4.20 TB/s (copy)", "float compute 60.0 TFLOP/s", "memory-bound", "launch-bound", "compute-bound", "float ridge at 14.3 FLOP/byte", "median 25.25 ms", "CL_BUILD_PROGRAM_FAILURE",
		"size (log)", "min 1.544 ms", ">median 1.564 ms<", "use of undeclared identifier &#39;x&#39;"} {
		if !strings.Contains(s, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestHTMLInChromium renders the report in headless Chromium: the DOM it builds
// must hold every SVG with drawn paths and text, and the screenshot must not be
// blank. Set CLMETER_SCREENSHOT to keep the screenshot at that path.
func TestHTMLInChromium(t *testing.T) {
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
	path, _ := writeFixtureHTML(t)
	shot := os.Getenv("CLMETER_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "report.png")
	}
	run := func(extra ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(),
			"--window-size=1200,2000"}, extra...)
		args = append(args, "file://"+path)
		cmd := exec.CommandContext(ctx, chromium, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", chromium, extra, err, stderr.String())
		}
		return out
	}
	dom := string(run("--dump-dom"))
	svgs := regexp.MustCompile(`(?s)<svg [^>]*>.*?</svg>`).FindAllString(dom, -1)
	if len(svgs) != fixtureSVGs {
		t.Errorf("the DOM holds %d SVGs, want %d", len(svgs), fixtureSVGs)
	}
	for i, s := range svgs {
		if !strings.Contains(s, "<path") || !strings.Contains(s, "<text") {
			t.Errorf("SVG %d has no paths or no text", i)
		}
	}
	if !strings.Contains(dom, `<table id="results">`) {
		t.Error("the DOM lacks the results table")
	}
	// The roofline charts: drawn in the DOM with their ceilings and points.
	roofs := regexp.MustCompile(`(?s)<figure class="roofline">(.*?)</figure>`).FindAllStringSubmatch(dom, -1)
	if len(roofs) != 2 {
		t.Errorf("the DOM holds %d roofline figures, want 2", len(roofs))
	}
	for _, r := range roofs {
		if !strings.Contains(r[1], "<path") || !strings.Contains(r[1], "roofline") || !strings.Contains(r[1], "arithmetic intensity") {
			t.Errorf("a roofline figure without paths or axis text: %.300s", r[1])
		}
	}
	run("--screenshot=" + shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	// Count distinct colours over a grid: a blank or failed page has one or two.
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("screenshot %s has %d colours: blank?", shot, len(colours))
	}
	t.Logf("screenshot %s: %dx%d, %d colours, %d SVGs in the DOM", shot, b.Dx(), b.Dy(), len(colours), len(svgs))
}
