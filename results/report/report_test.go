package report

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

var update = flag.Bool("update", false, "rewrite the golden files and fixtures under testdata/")

// fixtureBench makes a sampled benchmark whose per-launch times are base
// within ±rel, seeded, with bytes per launch for throughput.
func fixtureBench(name string, params [][2]string, dev results.DeviceInfo, base time.Duration, rel float64, n int, bytes int64, seed uint64) results.Benchmark {
	b := results.Benchmark{Name: name, Kind: "run", Device: dev, Figures: []results.Figure{},
		Program: &results.ProgramInfo{FromCache: true, BuildTime: time.Millisecond, Source: "stream.cl"}}
	for _, p := range params {
		b.SetParam(p[0], p[1])
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b9))
	var per []time.Duration
	var samples []measure.Sample
	for range n {
		d := time.Duration(float64(base) * (1 + rel*(2*rng.Float64()-1)))
		k := max(1, int(20*time.Millisecond/d))
		per = append(per, d)
		samples = append(samples, measure.Sample{PerLaunch: d, Launches: k, Host: d + 2*time.Microsecond, Device: d, DeviceBusy: d})
	}
	s := measure.Summarize(per, measure.StatsSettings{})
	info := measure.SetupInfo{BytesPerLaunch: bytes}
	if name == "fma" {
		info = measure.SetupInfo{OpsPerLaunch: bytes, OpsUnit: "FLOP"}
	}
	b.Measurement = &measure.Result{Timer: measure.TimerDevice, Samples: samples, Summary: s,
		StopReason: measure.StopNoiseTarget, Warnings: []string{}, Settings: measure.DefaultSettings(),
		Throughput: measure.ComputeThroughput(info, s)}
	return b
}

var (
	poclDev = results.DeviceInfo{Index: "0:0", Platform: "Portable Computing Language", Name: "cpu-haswell-AMD EPYC 7B13",
		Version: "OpenCL 3.0 PoCL HSTR: cpu-x86_64", DriverVersion: "3.1", Type: "CPU", ComputeUnits: 2}
	gpuDev = results.DeviceInfo{Index: "1:0", Platform: "NVIDIA CUDA", Name: "NVIDIA H200", Version: "OpenCL 3.0 CUDA",
		DriverVersion: "550.54", Type: "GPU", ComputeUnits: 132}
)

// fixtures returns the result files the golden tests render: a PoCL machine
// with a size sweep, a compute kernel, a suite with peaks and a failure; a GPU
// machine with the same sweep.
func fixtures() map[string]results.File {
	hdr := func(host string) results.File {
		f := results.File{Schema: results.SchemaName, Version: results.SchemaVersion, Tool: results.ToolInfo{Name: "clmeter", Version: "0.1.0"},
			CommandLine: []string{"clmeter", "run"}, Created: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC),
			Host: results.HostInfo{OS: "linux", Arch: "amd64", CPU: "AMD EPYC 7B13", Cores: 2, Hostname: host}, Benchmarks: []results.Benchmark{}}
		return f
	}
	a := hdr("ci-1")
	for i, sz := range []struct {
		s string
		n int64
	}{{"1Mi", 1 << 20}, {"4Mi", 4 << 20}, {"16Mi", 16 << 20}} {
		bytes := 3 * 4 * sz.n
		a.Benchmarks = append(a.Benchmarks, fixtureBench("triad", [][2]string{{"size", sz.s}, {"type", "float"}}, poclDev,
			time.Duration(bytes/8), 0.02, 12, bytes, uint64(i+1)))
	}
	fma := fixtureBench("fma", [][2]string{{"size", "1Mi"}}, poclDev, 850*time.Microsecond, 0.3, 10, 64<<20, 7)
	fma.Roofline = &results.Roofline{GOpsPerSecond: 79, IntensityFLOPPerByte: 16, OpsUnit: "FLOP", BandwidthGBPerSecond: 11.8, BandwidthPattern: "read-only",
		ComputeGOpsPerSecond: 90, Precision: "float", RidgeOpsPerByte: 90 / 11.8, Roof: 90, RoofUnit: "GFLOP/s", PercentOfRoof: 88,
		Verdict: "compute-bound", Evidence: []string{"intensity 16 FLOP/byte is above the ridge point 7.63"}, Profile: "clmeter suite peaks"}
	a.Benchmarks = append(a.Benchmarks, fma)
	peaks := results.Benchmark{Name: "peaks", Kind: "suite:peaks", Device: poclDev, Figures: []results.Figure{
		{Name: "bandwidth", Value: 11.8, Unit: "GB/s", Note: "triad, 64 MiB"},
		{Name: "copy", Value: 9.4, Unit: "GB/s"},
		{Name: "fp32", Value: 61.2, Unit: "GFLOP/s"},
	}}
	a.Benchmarks = append(a.Benchmarks, peaks, results.Benchmark{Name: "reduce", Kind: "run", Device: poclDev, Figures: []results.Figure{},
		Error: "CL_BUILD_PROGRAM_FAILURE: reduce.cl:3: error: use of undeclared identifier 'x'"})
	b := hdr("gpu-7")
	b.Host.CPU, b.Host.Cores = "Intel Xeon Platinum 8480+", 16
	for i, sz := range []struct {
		s string
		n int64
	}{{"1Mi", 1 << 20}, {"4Mi", 4 << 20}, {"16Mi", 16 << 20}} {
		bytes := 3 * 4 * sz.n
		tb := fixtureBench("triad", [][2]string{{"size", sz.s}, {"type", "float"}}, gpuDev,
			time.Duration(bytes/3000)+8*time.Microsecond, 0.01, 10, bytes, uint64(i+20))
		gbps := tb.Measurement.Throughput.GBPerSecond
		tb.Roofline = &results.Roofline{GBPerSecond: gbps, GOpsPerSecond: gbps / 6, IntensityFLOPPerByte: 1.0 / 6, OpsUnit: "FLOP",
			BandwidthGBPerSecond: 4200, BandwidthPattern: "copy", ComputeGOpsPerSecond: 60000, Precision: "float", RidgeOpsPerByte: 60000.0 / 4200,
			Roof: 700, RoofUnit: "GFLOP/s", PercentOfRoof: 100 * gbps / 4200, Verdict: "memory-bound", Evidence: []string{"below the ridge point"}, Profile: "short profile"}
		if i == 0 {
			tb.Roofline.Verdict = "launch-bound"
		}
		b.Benchmarks = append(b.Benchmarks, tb)
	}
	return map[string]results.File{"pocl.json": a, "h200.json": b}
}

// fixtureDir holds the fixture result files, shared with results' and
// compare's tests.
const fixtureDir = "../testdata"

// readFixtures reads the fixture files from ../testdata (rewriting them first
// with -update).
func readFixtures(t *testing.T) []results.Source {
	t.Helper()
	names := []string{"pocl.json", "h200.json"}
	if *update {
		fx := fixtures()
		for _, n := range names {
			f := fx[n]
			if err := results.WriteFile(filepath.Join(fixtureDir, n), &f); err != nil {
				t.Fatal(err)
			}
		}
	}
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(fixtureDir, n))
	}
	srcs, errs := results.ReadFiles(paths)
	if len(errs) > 0 {
		t.Fatalf("reading fixtures: %v (run go test -update)", errs)
	}
	return srcs
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./results/report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./results/report -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestReportGolden(t *testing.T) {
	t.Setenv("COLUMNS", "100") // the table fits 100 columns
	srcs := readFixtures(t)
	r := New(srcs)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format); err != nil {
				t.Fatal(err)
			}
			ext := map[string]string{"table": "txt", "markdown": "md", "csv": "csv", "json": "json", "benchfmt": "bench"}[format]
			golden(t, "report."+ext, buf.Bytes())
		})
	}
	// One file alone has no host column.
	var buf bytes.Buffer
	if err := New(srcs[:1]).WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "report-one.txt", buf.Bytes())
}

func TestReportGrouping(t *testing.T) {
	r := New(readFixtures(t))
	var got []string
	for _, row := range r.Rows {
		got = append(got, row.Key.Name+" "+row.Key.Params+" "+row.Key.Device)
	}
	want := []string{
		"fma size=1Mi cpu-haswell-AMD EPYC 7B13",
		"triad size=1Mi type=float NVIDIA H200",
		"triad size=1Mi type=float cpu-haswell-AMD EPYC 7B13",
		"triad size=4Mi type=float NVIDIA H200",
		"triad size=4Mi type=float cpu-haswell-AMD EPYC 7B13",
		"triad size=16Mi type=float NVIDIA H200",
		"triad size=16Mi type=float cpu-haswell-AMD EPYC 7B13",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Geomeans) != 2 || r.Geomeans[0].Device != "NVIDIA H200" || r.Geomeans[0].N != 3 || r.Geomeans[1].N != 4 {
		t.Errorf("geomeans %+v", r.Geomeans)
	}
	if len(r.Failed) != 1 || len(r.Figures) != 3 || !r.MultiHost {
		t.Errorf("failed %d figures %d multihost %v", len(r.Failed), len(r.Figures), r.MultiHost)
	}
}

func TestReadFilesKeepsGoodOnes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\"schema\": \"clmeter-result\", \"version\": 1,\n  \"benchmarks\": [}\n"), 0o644)
	future := filepath.Join(dir, "future.json")
	os.WriteFile(future, []byte(`{"schema":"clmeter-result","version":99}`), 0o644)
	missing := filepath.Join(dir, "missing.json")
	srcs, errs := results.ReadFiles([]string{"../testdata/pocl.json", bad, future, missing, "../testdata/h200.json"})
	if len(srcs) != 2 || srcs[0].Path != "../testdata/pocl.json" || srcs[1].Path != "../testdata/h200.json" {
		t.Errorf("kept %d files", len(srcs))
	}
	if len(errs) != 3 {
		t.Fatalf("errors %v, want 3", errs)
	}
	var se *results.SyntaxError
	var ve *results.VersionError
	if !errors.As(errs[0], &se) || se.Line != 2 || !strings.HasPrefix(errs[0].Error(), bad+":2:") {
		t.Errorf("bad file: %v", errs[0])
	}
	if !errors.As(errs[1], &ve) || !strings.Contains(errs[1].Error(), "future.json: unsupported result schema version 99") {
		t.Errorf("future file: %v", errs[1])
	}
	if !errors.Is(errs[2], os.ErrNotExist) || !strings.Contains(errs[2].Error(), missing) {
		t.Errorf("missing file: %v", errs[2])
	}
}

func TestParseQuantity(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"1024", 1024, true}, {"16Mi", 16 << 20, true}, {"4K", 4000, true}, {"64KiB", 64 << 10, true}, {"0.5", 0.5, true},
		{"float", 0, false}, {"", 0, false}, {"NaN", 0, false}, {"2Gi", 2 << 30, true}} {
		got, ok := ParseQuantity(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseQuantity(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{0, "-"}, {987, "987 ns"}, {12345, "12.35 µs"}, {1234567, "1.235 ms"}, {2500 * time.Millisecond, "2.500 s"}, {123456789, "123.5 ms"}} {
		if got := FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestReportCVAtOneSample: a row of one sample has no CV and no CI; the table
// and the HTML say "-", not "0%".
func TestReportCVAtOneSample(t *testing.T) {
	r := New(readFixtures(t))
	m := r.Rows[0].M()
	m.Samples = m.Samples[:1]
	m.Summary = measure.Summarize([]time.Duration{m.Samples[0].PerLaunch}, measure.StatsSettings{})
	cells := r.cells(r.Rows[0])
	if cells[8] != "-" || cells[5] != "-" {
		t.Errorf("n=1: CV %q, CI %q; want - and -", cells[8], cells[5])
	}
	var buf bytes.Buffer
	if err := Write(&buf, r, "html"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "CV 0.0%") || strings.Contains(buf.String(), ">0.0%<") {
		t.Error("the HTML report shows a CV of 0.0% at n=1")
	}
}
