package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/pagecheck"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
)

// twinUUIDs are two GPUs of one name; twinKey(i) is each one's key.
var twinUUIDs = []string{"1a2b3c4d-0000-1111-2222-333344445555", "9f8e7d6c-0000-1111-2222-333344445555"}

// twinBench is a benchmark of median m on dev moving bytes a launch.
func twinBench(dev results.DeviceInfo, name string, params map[string]string, order []string, m time.Duration, bytes int64) results.Benchmark {
	per := make([]time.Duration, 12)
	samples := make([]measure.Sample, len(per))
	for i := range per {
		per[i] = m + time.Duration(i%4)*m/400
		samples[i] = measure.Sample{PerLaunch: per[i], Launches: 1}
	}
	s := measure.Summarize(per, measure.StatsSettings{})
	return results.Benchmark{Name: name, Params: params, ParamOrder: order, Device: dev, Kind: "run",
		Measurement: &measure.Result{Timer: measure.TimerDevice, Samples: samples, Summary: s,
			Throughput: measure.ComputeThroughput(measure.SetupInfo{BytesPerLaunch: bytes}, s), StopReason: measure.StopNoiseTarget}}
}

// twinFile is one result file of two GPUs that differ only in their UUID
// (and index), the second 20% slower: a triad swept over three sizes and
// a launch on each.
func twinFile() *results.File {
	f := &results.File{Schema: results.SchemaName, Version: results.SchemaVersion, Host: results.HostInfo{Hostname: "node-1", OS: "linux", Arch: "amd64"}}
	for i, uuid := range twinUUIDs {
		d := results.DeviceInfo{Name: "NVIDIA H200", Platform: "NVIDIA CUDA", Index: fmt.Sprintf("0:%d", i), UUID: uuid,
			PCI: fmt.Sprintf("0000:%02x:00.0", 0x19+i), Host: "node-1", Type: "GPU", DriverVersion: "580.1"}
		d.Key, d.KeyFallback = results.DeviceKey(d)
		slow := 1 + 0.2*float64(i)
		for _, size := range []int64{1 << 20, 4 << 20, 16 << 20} {
			m := time.Duration(float64(size/1000+5000) * slow)
			f.Benchmarks = append(f.Benchmarks, twinBench(d, "triad", map[string]string{"size": fmt.Sprintf("%dMi", size>>20)}, []string{"size"}, m, 3*size))
		}
		f.Benchmarks = append(f.Benchmarks, twinBench(d, "launch/dispatch", nil, nil, time.Duration(4000*slow), 0))
	}
	return f
}

func twinReport(t *testing.T) *Report {
	t.Helper()
	return New([]results.Source{{Path: "node.json", File: twinFile()}})
}

// twinLabels are the device labels the report gives the twins.
var twinLabels = []string{"NVIDIA H200 [uuid 1a2b3c4d]", "NVIDIA H200 [uuid 9f8e7d6c]"}

// TestTwinsText: two devices of one name and different keys in one file are
// two devices in the table, markdown and CSV: each row and each geomean
// names its device by name and short key, and CSV gives each key whole.
func TestTwinsText(t *testing.T) {
	r := twinReport(t)
	if len(r.Geomeans) != 2 || r.Geomeans[0].Device != twinLabels[0] || r.Geomeans[1].Device != twinLabels[1] {
		t.Fatalf("geomeans %+v, want one per device: %q", r.Geomeans, twinLabels)
	}
	var tb, md bytes.Buffer
	if err := r.WriteTableWidth(&tb, 200); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": tb.String(), "markdown": md.String()} {
		for _, l := range twinLabels {
			// Four benchmarks and a geomean each.
			if n := strings.Count(out, l); n != 5 {
				t.Errorf("%s: %q %d times, want 5:\n%s", name, l, n, out)
			}
		}
	}
	var cb bytes.Buffer
	if err := r.WriteCSV(&cb); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	keys := map[string]string{}
	for _, rec := range recs[1:] {
		if rec[col["record"]] != "benchmark" {
			continue
		}
		dev, key := rec[col["device"]], rec[col["device_key"]]
		if old, ok := keys[dev]; ok && old != key {
			t.Errorf("CSV: device %q has keys %q and %q", dev, old, key)
		}
		keys[dev] = key
	}
	want := map[string]string{twinLabels[0]: "uuid:" + twinUUIDs[0], twinLabels[1]: "uuid:" + twinUUIDs[1]}
	if fmt.Sprint(keys) != fmt.Sprint(want) {
		t.Errorf("CSV devices and keys %v, want %v", keys, want)
	}
}

// TestTwinsShortKeysClash: two keys whose short forms agree (UUIDs with the
// same first 8 digits) are labelled by their whole keys, never merged.
func TestTwinsShortKeysClash(t *testing.T) {
	f := twinFile()
	for i := range f.Benchmarks {
		d := &f.Benchmarks[i].Device
		d.UUID = "1a2b3c4d-0000-0000-0000-00000000000" + d.Index[2:]
		d.Key, _ = results.DeviceKey(*d)
	}
	r := New([]results.Source{{Path: "node.json", File: f}})
	if len(r.Geomeans) != 2 || r.Geomeans[0].Device == r.Geomeans[1].Device || !strings.Contains(r.Geomeans[0].Device, "uuid:1a2b3c4d") {
		t.Errorf("geomeans %+v: want two, labelled by whole key", r.Geomeans)
	}
}

// htmlCells are the cells of column col of the table with id in page.
func htmlCells(t *testing.T, page, id string, col int) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<table id="` + id + `">.*?<tbody>(.*?)</tbody>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no table %q", id)
	}
	var out []string
	for _, row := range regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`).FindAllStringSubmatch(m[1], -1) {
		cells := regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(row[1], -1)
		if col < len(cells) {
			out = append(out, cells[col][1])
		}
	}
	return out
}

// TestTwinsHTML: the HTML report's legend has a line per device, with its
// UUID; the results table, the sweep's series and the geomeans name two
// devices; the node view, when set, is a section with a column per device
// and the slow one marked.
func TestTwinsHTML(t *testing.T) {
	r := twinReport(t)
	v, err := peers.Build(r.Sources[0].File.Benchmarks, peers.DefaultTolerance)
	if err != nil {
		t.Fatal(err)
	}
	r.NodeView = v
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	legend := htmlCells(t, page, "devices", 0)
	if len(legend) != 2 || legend[0] == legend[1] {
		t.Fatalf("legend labels %q: want two", legend)
	}
	descs := htmlCells(t, page, "devices", 2)
	for i, uuid := range twinUUIDs {
		if !strings.Contains(descs[i], "UUID "+uuid) {
			t.Errorf("legend line %d %q lacks its UUID", i, descs[i])
		}
	}
	seen := map[string]int{}
	for _, c := range htmlCells(t, page, "results", 2) {
		seen[c]++
	}
	if len(seen) != 2 || seen[legend[0]] != 4 || seen[legend[1]] != 4 {
		t.Errorf("results' devices %v, want 4 rows of each of %q", seen, legend)
	}
	if g := htmlCells(t, page, "geomeans", 0); len(g) != 2 || g[0] == g[1] {
		t.Errorf("geomeans' devices %q, want two", g)
	}
	if strings.Count(page, `class="sweep"`) != 1 || !strings.Contains(page, "triad against size") {
		t.Fatalf("no sweep of triad")
	}
	head := regexp.MustCompile(`(?s)<table id="nodeview"><thead>(.*?)</thead>`).FindStringSubmatch(page)
	if head == nil || strings.Count(head[1], `<th class="num">`) != 2 {
		t.Fatalf("node view head %q: want a column per device", head)
	}
	// Two devices: each is the other's only peer, so the slow one is
	// flagged on every benchmark.
	if flagged := regexp.MustCompile(`<td class="num flag">[^<]* !</td>`).FindAllString(page, -1); len(flagged) != 4 {
		t.Errorf("%d flagged cells in the node view, want 4: %q", len(flagged), flagged)
	}
	for _, want := range []string{"<h2>Devices side by side</h2>", "d1 = NVIDIA H200 0000:1a:00.0 uuid " + twinUUIDs[1], "slow: d1"} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestTwinsHTMLGeometry loads the twins' report, node view included, in
// headless Chromium: the longer labels the twins get overlap nothing, are
// clipped nowhere and widen no table past the window.
func TestTwinsHTMLGeometry(t *testing.T) {
	browser := pagecheck.Browser()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no /usr/bin/chromium under CI: make deps installs it")
		}
		t.Skip("no headless browser: /usr/bin/chromium is absent (Debian: apt-get install chromium)")
	}
	r := twinReport(t)
	v, err := peers.Build(r.Sources[0].File.Benchmarks, peers.DefaultTolerance)
	if err != nil {
		t.Fatal(err)
	}
	r.NodeView = v
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("CLMETER_REPORT_HTML"); dir != "" {
		os.WriteFile(filepath.Join(dir, "twins.html"), buf.Bytes(), 0o644)
	}
	srv := pagecheck.ServeHTML(buf.Bytes())
	defer srv.Close()
	res, err := pagecheck.Check(context.Background(), browser, srv.URL+"/", 1400, 2000, filepath.Join(t.TempDir(), "profile"))
	if err != nil {
		t.Fatal(err)
	}
	// A sweep and eight distributions.
	if res.Charts < 9 || res.Texts < 100 {
		t.Errorf("the check saw %d charts and %d text boxes: did the page render?", res.Charts, res.Texts)
	}
	for _, p := range res.Problems {
		t.Error(p)
	}
}
