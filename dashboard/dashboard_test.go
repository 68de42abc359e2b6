package dashboard

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

var day0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// fixture makes a store with specs measured over runs on two devices (three
// device/driver rows); the H100 series get 20% slower from run regressAt on.
func fixture(t testing.TB, path string, specs []storetest.Spec, runs, regressAt int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range runs {
		for _, dev := range []int{0, 2, 3} {
			if dev == 3 && i < runs/2 || dev == 2 && i >= runs/2 {
				continue // the driver update halfway
			}
			scale := 1.0
			if dev >= 2 && i >= regressAt {
				scale = 1.2
			}
			f := storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(i) * 6 * time.Hour), Device: storetest.Devices[dev],
				Scale: scale, Seed: uint64(i*10 + dev), Noise: 0.005})
			if _, err := st.Add(ctx, f, fmt.Sprintf("run%d-%d.json", i, dev), map[string]string{"commit": fmt.Sprintf("%040x", i+1)}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// server serves the dashboard over a fixture and records every response
// status that was not 2xx or 3xx.
func server(t testing.TB) (*httptest.Server, *[]string) {
	path := filepath.Join(t.TempDir(), "r.db")
	fixture(t, path, storetest.Suite(4), 16, 11)
	st, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var mu sync.Mutex
	bad := &[]string{}
	h := New(st, 0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		h.ServeHTTP(rec, r)
		if rec.status >= 400 {
			mu.Lock()
			*bad = append(*bad, fmt.Sprintf("%s %s: %d", r.Method, r.URL, rec.status))
			mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, bad
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestPages(t *testing.T) {
	srv, _ := server(t)
	code, body := get(t, srv.URL+"/")
	if code != 200 || !strings.Contains(body, "NVIDIA H100 80GB HBM3") || !strings.Contains(body, `href="/bench?name=copy"`) {
		t.Fatalf("index %d:\n%.2000s", code, body)
	}
	code, body = get(t, srv.URL+"/bench?name=copy")
	if code != 200 {
		t.Fatalf("bench %d: %.500s", code, body)
	}
	// Three series (PoCL; H100 on two drivers): the regression at run 11 is on
	// the second H100 driver, found and marked.
	if n := strings.Count(body, `<svg class="chart trend runs"`); n != 3 {
		t.Errorf("%d trend charts, want 3", n)
	}
	if !strings.Contains(body, `class="cp regression"`) || !strings.Contains(body, "+20.") {
		t.Errorf("no regression marked on the bench page")
	}
	if strings.Count(body, `class="band"`) != 3 {
		t.Errorf("CI bands missing")
	}
	runLink := regexp.MustCompile(`href="/run/(\d+)"`).FindStringSubmatch(body)
	if runLink == nil {
		t.Fatal("no link to a run")
	}
	code, body = get(t, srv.URL+"/run/"+runLink[1])
	if code != 200 || !strings.Contains(body, "Every sample") || strings.Count(body, "<tr><td class=\"num\" data-sort=") != 10 ||
		!strings.Contains(body, "sha256") || !strings.Contains(body, "commit=") {
		t.Errorf("run page %d:\n%.3000s", code, body)
	}
	code, body = get(t, srv.URL+"/compare?a=1&b=2")
	if code != 200 || !strings.Contains(body, `<svg class="chart ratio"`) || !strings.Contains(body, "geomean ratio") {
		t.Errorf("compare page %d:\n%.3000s", code, body)
	}
	for _, u := range []string{"/run/99999", "/run/x", "/bench", "/nothing"} {
		if code, _ := get(t, srv.URL+u); code < 400 {
			t.Errorf("%s: status %d", u, code)
		}
	}
	// Bad paths and ids are the client's error, said as such: never 500, never 200.
	for u, want := range map[string]int{
		"/static/%c0%af": 404, "/static/%C0%AE%C0%AE/x": 404, "/static/%ff.css": 404, "/static/nope.css": 404,
		"/compare?a=abc&b=-1": 400, "/compare?a=1&b=0": 400, "/compare?a=1&b=999": 404,
	} {
		if code, body := get(t, srv.URL+u); code != want {
			t.Errorf("%s: status %d, want %d (%.200s)", u, code, want, body)
		}
	}
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

func chromium(t *testing.T) string {
	for _, c := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no /usr/bin/chromium under CI: make deps installs it")
	}
	t.Skip("no headless browser: /usr/bin/chromium is absent (Debian: apt-get install chromium)")
	return ""
}

// load opens url in headless Chromium and returns the DOM after scripts ran
// and every console message the page produced (the dashboard's script logs
// nothing, so any message is a fault: an error, a refused resource ...).
func load(t *testing.T, browser, url string, extra ...string) (dom string, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--window-size=1280,2400"}, extra...)
	if len(extra) == 0 {
		args = append(args, "--dump-dom")
	}
	cmd := exec.CommandContext(ctx, browser, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	return string(out), console
}

// TestInChromium loads every kind of page in headless Chromium: it renders,
// its script ran, its charts hold drawn paths, and there is no console
// message and no failed request.
func TestInChromium(t *testing.T) {
	browser := chromium(t)
	srv, bad := server(t)
	pages := []struct {
		path   string
		charts int
	}{{"/", 0}, {"/bench?name=triad", 3}, {"/compare?a=1&b=3", 1}, {"/run/5", 1}}
	for _, p := range pages {
		dom, console := load(t, browser, srv.URL+p.path)
		if !strings.Contains(dom, `data-ready="1"`) {
			t.Errorf("%s: the page script did not run to its end", p.path)
		}
		svgs := regexp.MustCompile(`(?s)<svg class="chart[^>]*>.*?</svg>`).FindAllString(dom, -1)
		if len(svgs) < p.charts {
			t.Errorf("%s: %d charts in the DOM, want %d", p.path, len(svgs), p.charts)
		}
		for i, s := range svgs {
			if !strings.Contains(s, "<path") && !strings.Contains(s, "<rect") || !strings.Contains(s, "<text") {
				t.Errorf("%s: chart %d has nothing drawn", p.path, i)
			}
		}
		if len(console) > 0 {
			t.Errorf("%s: console messages:\n%s", p.path, strings.Join(console, "\n"))
		}
	}
	shot := os.Getenv("CLMETER_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "bench.png")
	}
	load(t, browser, srv.URL+"/bench?name=triad", "--screenshot="+shot)
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10000 {
		t.Errorf("screenshot %s: %v", shot, err)
	}
	if len(*bad) > 0 {
		t.Errorf("failed requests: %v", *bad)
	}
}

// TestConsoleCheckWorks makes sure the console check above can fail: a page
// that throws is caught.
func TestConsoleCheckWorks(t *testing.T) {
	browser := chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!DOCTYPE html><html><body><p>x</p><script>throw new Error("deliberate");</script></body></html>`)
	}))
	defer srv.Close()
	_, console := load(t, browser, srv.URL+"/")
	if len(console) == 0 || !strings.Contains(strings.Join(console, "\n"), "deliberate") {
		t.Errorf("a thrown error was not seen: %v", console)
	}
}

// TestTwinDevicesTwoSeries stores runs on two PoCL devices of one name
// and driver that differ only in compute units and index (so in key): the
// bench page shows two trends, each heading telling its device apart, and
// ranks both in the latest table.
func TestTwinDevicesTwoSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	a := storetest.Devices[0]
	b := a
	b.Index, b.ComputeUnits = "0:1", 1
	specs := storetest.Suite(1)
	for i := range 4 {
		for j, d := range []results.DeviceInfo{a, b} {
			f := storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(i) * time.Hour), Device: d, Seed: uint64(10*i + j), Scale: float64(1 + j)})
			if _, err := st.Add(ctx, f, fmt.Sprintf("run%d-%d.json", i, j), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Close()
	ro, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	srv := httptest.NewServer(New(ro, 0))
	defer srv.Close()
	code, body := get(t, srv.URL+"/bench?name=copy")
	if code != 200 {
		t.Fatalf("bench %d: %.500s", code, body)
	}
	if n := strings.Count(body, `<svg class="chart trend runs"`); n != 2 {
		t.Errorf("%d trend charts, want 2 (one per device)", n)
	}
	for _, which := range []string{"[ci-1 0:0]", "[ci-1 0:1]"} {
		if n := strings.Count(body, which); n < 2 {
			t.Errorf("%q shown %d times, want in a heading and the latest table:\n%.3000s", which, n, body)
		}
	}
}
