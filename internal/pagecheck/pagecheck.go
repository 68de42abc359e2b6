// Package pagecheck checks pages by their geometry in headless Chromium for
// the tests of the HTML report and the dashboard: no two text boxes overlap,
// no text leaves its SVG or card, every chart has at least two data marks, no
// bar chart is one series of fewer than three bars, a time axis and the times
// beside it share a unit, plots use the page's width, every point label
// (text.point-label) sits next to a point of its own, a missing CI is drawn
// as missing, a chart of runs has x ticks with distinct run numbers, ratios
// come with their CI and test and mixed timers are marked, and the
// page is no wider than its viewport.
package pagecheck

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

//go:embed pagecheck.js
var script []byte

// ScriptPath is where Inject serves the checking script.
const ScriptPath = "/__pagecheck.js"

// Browser returns the path of a headless Chromium, or "" when there is none.
func Browser() string {
	for _, c := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}

// A Problem is one geometry fault of a page.
type Problem struct {
	// Kind is "overlap", "clipped", "marks", "bars", "units", "narrow",
	// "wide", "ci", "xticks", "label" or "ratio" (pagecheck.js says what
	// each means).
	Kind string `json:"kind"`
	What string `json:"what"`
}

// String writes the problem as "kind: what".
func (p Problem) String() string { return p.Kind + ": " + p.What }

// A Verdict is what the script measured on one page.
type Verdict struct {
	// Texts is the number of text boxes, Charts of charts; Marks the data
	// marks of each chart.
	Texts    int       `json:"texts"`
	Charts   int       `json:"charts"`
	Marks    []int     `json:"marks"`
	Width    float64   `json:"width"`
	Viewport float64   `json:"viewport"`
	Problems []Problem `json:"problems"`
}

// Inject wraps h: every HTML page it serves gets the checking script (a
// same-origin <script src>, so a Content-Security-Policy of 'self' allows it)
// before </body>, and ScriptPath serves the script.
func Inject(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == ScriptPath {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(script)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			body = bytes.Replace(body, []byte("</body>"), []byte(`<script src="`+ScriptPath+`"></script></body>`), 1)
			w.Header().Del("Content-Length")
		}
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

// ServeHTML serves page at / (for a self-contained file such as the report),
// with the script injected; the caller closes the server.
func ServeHTML(page []byte) *httptest.Server {
	return httptest.NewServer(Inject(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})))
}

var verdictRE = regexp.MustCompile(`(?s)<pre id="pagecheck-verdict"[^>]*>(.*?)</pre>`)

// Check loads url (served through Inject) in browser at width x height and
// returns the script's verdict.
func Check(ctx context.Context, browser, url string, width, height int, profileDir string) (Verdict, error) {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profileDir,
		"--virtual-time-budget=3000", fmt.Sprintf("--window-size=%d,%d", width, height), "--dump-dom", url}
	cmd := exec.CommandContext(ctx, browser, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Verdict{}, fmt.Errorf("%s %s: %v\n%s", browser, url, err, stderr.String())
	}
	m := verdictRE.FindSubmatch(out)
	if m == nil {
		return Verdict{}, fmt.Errorf("%s: the geometry script wrote no verdict (did the page load it?)", url)
	}
	var v Verdict
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &v); err != nil {
		return Verdict{}, fmt.Errorf("%s: verdict: %v", url, err)
	}
	return v, nil
}
