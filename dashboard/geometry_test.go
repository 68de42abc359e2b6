package dashboard

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/pagecheck"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// Devices beside storetest's: Oclgrind (a simulator: its times say nothing of
// hardware), Rusticl on llvmpipe timed by the host clock, and a second H100
// model under the same name with fewer compute units.
var (
	oclgrind = results.DeviceInfo{Index: "2:0", Platform: "Oclgrind", PlatformVersion: "OpenCL 1.2 (Oclgrind 21.10)", Name: "Oclgrind Simulator",
		Vendor: "University of Bristol", Version: "OpenCL 1.2 (Oclgrind 21.10)", DriverVersion: "Oclgrind 21.10", Type: "CPU|GPU|ACCELERATOR|DEFAULT",
		ComputeUnits: 1, MaxClockMHz: 1, TimerResolutionNS: 1, GlobalMemBytes: 128 << 20, LocalMemBytes: 32 << 10}
	llvmpipe = results.DeviceInfo{Index: "3:0", Platform: "rusticl", PlatformVersion: "OpenCL 3.0", Name: "llvmpipe (LLVM 15.0.6, 256 bits)",
		Vendor: "Mesa", Version: "OpenCL 3.0", DriverVersion: "22.3.6", Type: "CPU", ComputeUnits: 2, MaxClockMHz: 0, TimerResolutionNS: 1,
		GlobalMemBytes: 2 << 30, LocalMemBytes: 64 << 10}
	h100PCIe = func() results.DeviceInfo {
		d := storetest.Devices[3]
		d.ComputeUnits = 114
		d.MaxClockMHz = 1755
		return d
	}()
)

// richStore is the fixture of TestPages, plus runs on Oclgrind (fast and
// wildly noisy, as a simulator's "times" are), on a host-timed device and on
// the second H100, with outliers in every run's samples; and six runs of one
// minute on the AMD GPU, the fourth of 5 samples (no CI): charts of these
// failed the 'ci' and 'xticks' checks before points with no CI were left out
// of the band and ticks carried run numbers.
func richStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.db")
	specs := storetest.Suite(4)
	fixture(t, path, specs, 16, 11)
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 6 {
		for j, dev := range []results.DeviceInfo{oclgrind, llvmpipe, h100PCIe} {
			o := storetest.Options{Created: day0.Add(time.Duration(i) * 24 * time.Hour), Device: dev, Seed: uint64(100 + 10*i + j), Noise: 0.02}
			switch dev.Platform {
			case "Oclgrind":
				o.Scale, o.Noise = 0.01, 0.9
			case "rusticl":
				o.Scale = 3
			}
			f := storetest.File(specs, o)
			for k := range f.Benchmarks {
				m := f.Benchmarks[k].Measurement
				if dev.Platform == "rusticl" {
					m.Timer = measure.TimerHost
				}
				// Two slow samples: outliers.
				for _, s := range []int{2, 7} {
					m.Samples[s].PerLaunch = m.Samples[s].PerLaunch * 3
				}
				per := make([]time.Duration, len(m.Samples))
				for s := range m.Samples {
					if m.Samples[s].PerLaunch < time.Nanosecond {
						m.Samples[s].PerLaunch = 40 * time.Nanosecond
					}
					m.Samples[s].Device, m.Samples[s].DeviceBusy = m.Samples[s].PerLaunch, m.Samples[s].PerLaunch
					per[s] = m.Samples[s].PerLaunch
				}
				m.Summary = measure.Summarize(per, measure.StatsSettings{})
			}
			if _, err := st.Add(ctx, f, fmt.Sprintf("extra%d-%d.json", i, j), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 6 {
		o := storetest.Options{Created: day0.Add(40*24*time.Hour + time.Duration(i)*10*time.Second), Device: storetest.Devices[4], Seed: uint64(900 + i)}
		if i == 3 {
			o.Samples = 5
		}
		if _, err := st.Add(ctx, storetest.File(specs, o), fmt.Sprintf("minute%d.json", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestGeometryInChromium loads each dashboard page in headless Chromium at
// 1400 px and fails on overlapping or clipped text, a chart with fewer than
// two data marks, or a page wider than the window. Set CLMETER_SCREENSHOTS to
// a directory to keep a screenshot of each page.
func TestGeometryInChromium(t *testing.T) {
	browser := chromium(t)
	st, err := store.Open(context.Background(), richStore(t), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(pagecheck.Inject(New(st, 0)))
	defer srv.Close()
	_, bench := get(t, srv.URL+"/bench?name=copy")
	// The host-timed device's newest run: its samples hold two outliers.
	run := regexp.MustCompile(`host-timed</span>.*?href="/run/(\d+)"`).FindStringSubmatch(bench)
	if run == nil {
		t.Fatal("no run linked from the bench page")
	}
	devs, err := st.Devices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, d := range devs {
		ids[d.Platform+"/"+d.Driver+"/"+fmt.Sprint(d.ComputeUnits)] = d.ID
	}
	// Host-timed against device-timed: every ratio marked, none charted.
	mixed := fmt.Sprintf("/compare?a=%d&b=%d", ids["NVIDIA CUDA/570.86.15/132"], ids["rusticl/22.3.6/2"])
	pages := []string{"/", "/bench?name=copy", "/bench?name=triad",
		fmt.Sprintf("/compare?a=%d&b=%d", ids["NVIDIA CUDA/570.86.15/132"], ids["NVIDIA CUDA/570.86.15/114"]),
		mixed,
		"/run/" + run[1]}
	for i, p := range pages {
		v, err := pagecheck.Check(context.Background(), browser, srv.URL+p, 1400, 2000, filepath.Join(t.TempDir(), "profile"))
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range v.Problems {
			t.Errorf("%s: %s", p, pr)
		}
		if p != "/" && p != mixed && v.Charts == 0 {
			t.Errorf("%s: no chart", p)
		}
		t.Logf("%s: %d text boxes, %d charts (data marks %v), %g px wide in %g", p, v.Texts, v.Charts, v.Marks, v.Width, v.Viewport)
		_, body := get(t, srv.URL+p)
		checkConventions(t, p, body)
		if dir := os.Getenv("CLMETER_SCREENSHOTS"); dir != "" {
			name := strings.NewReplacer("/", "", "?", "-", "=", "-", "&", "-").Replace(p)
			if name == "" {
				name = "index"
			}
			load(t, browser, srv.URL+p, "--screenshot="+filepath.Join(dir, fmt.Sprintf("dashboard-%d-%s.png", i+1, name)), "--window-size=1400,2000", "--hide-scrollbars")
		}
	}
}

var (
	svgRE     = regexp.MustCompile(`(?s)<svg class="chart trend[^"]*".*?</svg>`)
	xTickRE   = regexp.MustCompile(`<text class="tick" x="[\d.]+" y="[\d.]+" text-anchor="(?:start|end|middle)">([^<]*)</text>`)
	tspanRE   = regexp.MustCompile(`<tspan[^>]*>([^<]*)</tspan>`)
	yTickRE   = regexp.MustCompile(`<text class="tick" x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]*)</text>`)
	optionRE  = regexp.MustCompile(`(?s)<select name="a">(.*?)</select>`)
	optTextRE = regexp.MustCompile(`<option[^>]*>([^<]*)</option>`)
)

// checkConventions checks what geometry cannot see: no trend chart's tick
// reads "-" (pagecheck's 'xticks' sees that runs are told apart); a run's outliers are drawn; the
// device lists read distinctly; simulators and host-timed runs are marked
// and not ranked.
func checkConventions(t *testing.T, path, body string) {
	t.Helper()
	for i, svg := range svgRE.FindAllString(body, -1) {
		for _, m := range append(xTickRE.FindAllStringSubmatch(svg, -1), tspanRE.FindAllStringSubmatch(svg, -1)...) {
			if m[1] == "-" {
				t.Errorf("%s: chart %d has a tick labelled \"-\"", path, i)
			}
		}
	}
	switch {
	case strings.HasPrefix(path, "/run/"):
		m := regexp.MustCompile(`orange dots are outliers \((\d+) here\)`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no outlier count", path)
		}
		if got := strings.Count(body, `class="pt outlier"`); fmt.Sprint(got) != m[1] || got == 0 {
			t.Errorf("%s: %d outliers drawn, the page counts %s (the fixture has two slow samples a run)", path, got, m[1])
		}
		if strings.Contains(body, "CV</th><td class=\"num\">+") {
			t.Errorf("%s: the CV is signed", path)
		}
	case strings.HasPrefix(path, "/compare"):
		sel := optionRE.FindStringSubmatch(body)
		if sel == nil {
			t.Fatalf("%s: no device list", path)
		}
		seen := map[string]bool{}
		for _, o := range optTextRE.FindAllStringSubmatch(sel[1], -1) {
			if seen[o[1]] {
				t.Errorf("%s: two devices read %q", path, o[1])
			}
			seen[o[1]] = true
		}
		if !seen["Oclgrind Simulator · driver Oclgrind 21.10 (simulator)"] {
			t.Errorf("%s: the simulator is not marked in %v", path, seen)
		}
	case strings.HasPrefix(path, "/bench"):
		for _, tag := range []string{"simulator", "host-timed"} {
			row := regexp.MustCompile(`<tr class="unranked"><td>[^<]*<span class="tag">` + tag + `</span></td>.*?not ranked`).FindString(body)
			if row == "" {
				t.Errorf("%s: no unranked %s row in the latest table", path, tag)
			}
		}
		if strings.Contains(body, "Oclgrind Simulator · driver") && regexp.MustCompile(`<title>Oclgrind[^<]*: [\d.]+</title>`).MatchString(body) {
			t.Errorf("%s: the simulator has a bar in a ranking", path)
		}
	}
}
