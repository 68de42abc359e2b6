package main

// Rows against the peers: clpeak (when installed), the plain C launch loop and
// the plain C program-cache floor, each measured alternately with clmeter in
// rounds, reported as the median of the per-round ratios with a 95% CI.

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/units"
)

var (
	peerRounds = flag.Int("peer-rounds", 1, "alternating rounds of clpeak and clmeter's peaks suite")
	latRounds  = flag.Int("latency-rounds", 2, "alternating rounds of clpeak --kernel-latency and clmeter's launch suite")
	progbin    = flag.String("progbin", "bin/progbin", "the plain C program-cache floor (bench/c/progbin.c)")
	cacheRuns  = flag.Int("cache-rounds", 7, "rounds of the program-cache row (a clmeter process between two of the C floor's)")
)

// medianCI returns the median of v and a distribution-free confidence
// interval of it of at least 95% (measure.MedianCI), or NaNs when v is empty.
func medianCI(v []float64) (med, lo, hi float64) {
	s := append([]float64{}, v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	lo, hi, _ = measure.MedianCI(s, 0.95)
	return measure.MedianSorted(s), lo, hi
}

// ciString is the median of v with its 95% confidence interval.
func ciString(v []float64) string {
	med, lo, hi := medianCI(v)
	return fmt.Sprintf("%.3f [%.3f, %.3f]", med, lo, hi)
}

// ratioRow makes a row from per-round ratios (clmeter / peer) with a target.
func ratioRow(name string, ratios, ours, theirs []float64, unit func(float64) string, target string, ok func(float64) bool, how string) row {
	med, lo, hi := medianCI(ratios)
	return row{name, fmt.Sprintf("%.3f [%.3f, %.3f] (%s vs %s)", med, lo, hi, unit(median(ours)), unit(median(theirs))), target, met(ok(med)), how}
}

func gbs(v float64) string   { return units.Rate(v, "B") }
func gops(v float64) string  { return units.Rate(v, "op") }
func micro(v float64) string { return ns(v * 1e3) }

// clpeakFigures are the best figure of each clpeak section (GB/s, G/s, µs).
type clpeakFigures map[string]float64

var clpeakNumber = regexp.MustCompile(`^\s*([A-Za-z0-9_ ]+?)\s*:\s*([0-9.]+)\s*(us)?\s*$`)

// parseClpeak reads clpeak's text output: each section's best figure.
func parseClpeak(out string) clpeakFigures {
	f := clpeakFigures{}
	section := ""
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "Global memory bandwidth"):
			section = "bandwidth"
		case strings.HasPrefix(t, "Single-precision compute"):
			section = "float"
		case strings.HasPrefix(t, "Double-precision compute"):
			section = "double"
		case strings.HasPrefix(t, "Half-precision compute"):
			section = "half"
		case strings.HasPrefix(t, "Local memory bandwidth"):
			section = "local"
		case strings.HasPrefix(t, "Image memory bandwidth"):
			section = "image"
		case strings.HasPrefix(t, "Integer char (8bit) compute"):
			section = "char"
		case strings.HasPrefix(t, "Integer short (16bit) compute"):
			section = "short"
		case strings.HasPrefix(t, "Integer compute Fast 24bit"):
			section = "int24"
		case strings.HasPrefix(t, "Integer compute"):
			section = "int"
		case strings.HasPrefix(t, "Transfer bandwidth"), strings.HasSuffix(t, ")") && !strings.Contains(t, ":"):
			section = "" // a section clmeter has no row for
		case strings.HasPrefix(t, "Kernel launch latency"):
			if m := clpeakNumber.FindStringSubmatch(t); m != nil {
				f["latency"], _ = strconv.ParseFloat(m[2], 64)
			}
		default:
			if m := clpeakNumber.FindStringSubmatch(t); m != nil && section != "" {
				v, _ := strconv.ParseFloat(m[2], 64)
				f[section] = math.Max(f[section], v)
			}
		}
	}
	return f
}

// clpeakBenchmarks maps each clpeak test flag to the benchmarks of suite
// peaks that its row reads (the bests made of them come along).
var clpeakBenchmarks = []struct{ flag, benchmarks string }{
	{"--global-bandwidth", `bandwidth/(stride|chunk)/`},
	{"--local-bandwidth", `local-bandwidth/`},
	{"--image-bandwidth", `image-bandwidth/`},
	{"--compute-hp", `compute/half/`},
	{"--compute-sp", `compute/float/`},
	{"--compute-dp", `compute/double/`},
	{"--compute-integer", `compute/int/`},
	{"--compute-intfast", `compute/int24/`},
	{"--compute-char", `compute/char/`},
	{"--compute-short", `compute/short/`},
}

// peaksFilter selects the benchmarks of suite peaks that the rows of the
// clpeak tests given read: a benchmark clpeak has no test for makes no row
// (clpeak 1.1.2 has no local, image, char or short tests).
func peaksFilter(tests []string) string {
	var parts []string
	for _, b := range clpeakBenchmarks {
		// No test known: clpeak runs them all.
		if len(tests) == 0 || slices.Contains(tests, b.flag) {
			parts = append(parts, b.benchmarks)
		}
	}
	return "^peaks/(" + strings.Join(parts, "|") + ")"
}

// clmeterPeaks reads the best figures of 'clmeter suite peaks' (the
// benchmarks peaksRead selects) and the launch suite's medians (µs).
func clmeterPeaks(dev *deviceJSON, dir, peaksRead string, suites ...string) (map[string]float64, error) {
	got := map[string]float64{}
	for _, suite := range suites {
		out := filepath.Join(dir, suite+".json")
		args := []string{"suite", suite, "--device", dev.Ref, "-o", out}
		switch suite {
		case "peaks":
			// 0.5 s a benchmark, not the suite's 1.5 s: the figures are
			// medians and bests, which the longer sampling tightens but does
			// not move (docs/OWNCOST.md has the figures).
			// Only the benchmarks the rows read (peaksFilter): the copy and
			// read-modify-write patterns and the cache bandwidths are no
			// clpeak figure, and at a large working set their buffers' set-up
			// can take most of the suite's time. Filtered, the run does not warm the driver's
			// cache for the memory row's peaks (suitesRun stays unset), which
			// then warms it itself.
			args = append(args, "--max-time", "500ms", "--filter", peaksRead)
		case "launch":
			args = append(args, "--filter", "^launch/dispatch$", "--max-time", "1s")
		}
		if _, err := clm(args...); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(out)
		if err != nil {
			return nil, err
		}
		var f resultFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, err
		}
		for _, bm := range f.Benchmarks {
			switch {
			case strings.HasPrefix(bm.Name, "peaks/bandwidth/stride/") || strings.HasPrefix(bm.Name, "peaks/bandwidth/chunk/"):
				// clpeak's global bandwidth reads only: the row compares the
				// same pattern (clmeter's ceiling also counts copy and
				// read-modify-write, faster on some devices).
				if m := bm.Measurement; m != nil && m.Throughput != nil {
					got["bandwidth"] = math.Max(got["bandwidth"], m.Throughput.GBPerS)
				}
			case bm.Name == "peaks/local-bandwidth-best":
				got["local"] = bm.Figures[0].Value
			case bm.Name == "peaks/image-bandwidth-best":
				got["image"] = bm.Figures[0].Value
			case strings.HasPrefix(bm.Name, "peaks/compute-best/"):
				got[strings.TrimPrefix(bm.Name, "peaks/compute-best/")] = bm.Figures[0].Value
			case bm.Name == "launch/dispatch" && bm.Measurement != nil:
				got["latency"] = bm.Measurement.Summary.Median / 1e3
			}
		}
	}
	return got, nil
}

// clpeakRows runs clpeak and clmeter's peaks and launch suites alternately.
func clpeakRows(dev *deviceJSON, dir string) ([]row, error) {
	path, err := exec.LookPath("clpeak")
	if err != nil {
		return []row{{"clpeak rows", "clpeak is not installed", "-", "-", "apt-get install clpeak (make bench installs it on Debian)"}}, nil
	}
	verOut, _ := exec.Command(path, "--version").CombinedOutput()
	version := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(verOut)), "clpeak version:"))
	var p, d string
	if _, err := fmt.Sscanf(strings.Replace(dev.Ref, ":", " ", 1), "%s %s", &p, &d); err != nil {
		return nil, fmt.Errorf("device ref %q: %v", dev.Ref, err)
	}
	keys := []string{"float", "double", "int", "int24", "short", "char", "half", "bandwidth", "local", "image", "latency"}
	ours, theirs, ratio := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	tests := clpeakTests(path)
	for r := 0; r < *peerRounds; r++ {
		// Every test but the transfers (clmeter's transfers suite is not in
		// these rows) and the latency (the dispatch row below runs it alone):
		// clpeak 1.x has no local, image, char or short tests.
		out, err := exec.Command(path, append([]string{"-p", p, "-d", d}, tests...)...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("clpeak: %v: %s", err, out)
		}
		cp := parseClpeak(string(out))
		cm, err := clmeterPeaks(dev, dir, peaksFilter(tests), "peaks")
		if err != nil {
			return nil, err
		}
		for _, k := range keys[:len(keys)-1] {
			if cp[k] > 0 && cm[k] > 0 {
				ours[k], theirs[k] = append(ours[k], cm[k]), append(theirs[k], cp[k])
				ratio[k] = append(ratio[k], cm[k]/cp[k]) // latency: lower is better
			}
		}
	}
	// Dispatch: clpeak's latency test alone against the launch suite, in as
	// many rounds as the launch rows.
	for r := 0; r < *latRounds; r++ {
		out, err := exec.Command(path, "-p", p, "-d", d, "--kernel-latency").CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("clpeak: %v: %s", err, out)
		}
		cp := parseClpeak(string(out))
		cm, err := clmeterPeaks(dev, dir, "", "launch")
		if err != nil {
			return nil, err
		}
		if cp["latency"] > 0 && cm["latency"] > 0 {
			ours["latency"], theirs["latency"] = append(ours["latency"], cm["latency"]), append(theirs["latency"], cp["latency"])
			ratio["latency"] = append(ratio["latency"], cm["latency"]/cp["latency"])
		}
	}
	how := fmt.Sprintf("clpeak %s / clmeter suite peaks --max-time 500ms alternated, median of %d per-round ratios [95%% CI]", version, *peerRounds)
	names := map[string]string{"float": "fp32 compute", "double": "fp64 compute", "int": "int32 compute", "int24": "int24 (mad24) compute", "short": "int16 compute", "char": "int8 compute",
		"half": "fp16 compute", "bandwidth": "global memory bandwidth (read-only)", "local": "local memory bandwidth", "image": "image bandwidth"}
	var rows []row
	for _, k := range keys[:len(keys)-1] {
		if len(ratio[k]) == 0 {
			continue
		}
		unit := gops
		if k == "bandwidth" || k == "local" || k == "image" {
			unit = gbs
		}
		rows = append(rows, ratioRow(names[k]+": clmeter / clpeak "+version, ratio[k], ours[k], theirs[k], unit, ">= 1.00", func(v float64) bool { return v >= 1 }, how))
	}
	if len(ratio["latency"]) > 0 {
		rows = append(rows, ratioRow("dispatch (QUEUED->START): clmeter / clpeak "+version, ratio["latency"], ours["latency"], theirs["latency"], micro, "<= 1.05", func(v float64) bool { return v <= 1.05 },
			fmt.Sprintf("clpeak --kernel-latency / clmeter suite launch alternated, median of %d per-round ratios [95%% CI]; clpeak: mean of whole-µs QUEUED->START of a max-work-group x CUs kernel, clmeter: median of batch means, empty one-item kernel (the C loop's rows show the shape does not matter)", *latRounds)))
	}
	return rows, nil
}

// cacheFloorRow compares clmeter's warm-cache build of bench/long.cl, in a
// fresh process, with the C floor (clCreateProgramWithBinary + clBuildProgram
// in a fresh process), alternating, with the driver's cache as it is for both.
func cacheFloorRow(dev *deviceJSON, dir string) ([]row, error) {
	// The row measures the cache's mechanism, so it is on whatever the
	// driver's default policy (NVIDIA's is off while the driver's cache is on).
	defer os.Setenv("CLMETER_CACHE", os.Getenv("CLMETER_CACHE"))
	os.Setenv("CLMETER_CACHE", "1")
	src, _ := filepath.Abs("bench/long.cl")
	args := []string{"run", "bench/long.cl", "--kernel", "spin", "--global", "64", "--arg", "buf:float:64:zero:out", "--arg", "int:10", "--device", dev.Ref, "--samples", "1", "--format", "json"}
	// The first run fills clmeter's cache and tells its build options,
	// which the C floor builds with too.
	_, opts, err := clmCachedBuild(args)
	if err != nil {
		return nil, err
	}
	// The same program and options on both sides: clmeter's options (-I of
	// the source's folder, -cl-kernel-arg-info for its argument checks) make
	// a larger binary on PoCL (81 against 49 KB for bench/long.cl) that loads
	// about 5% slower.
	bin := filepath.Join(dir, "long.bin")
	if out, err := exec.Command(*progbin, "save", fmt.Sprint(dev.Index), src, opts, bin).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("progbin save: %v: %s", err, out)
	}
	// The store is a detached child: wait for it, or the next runs may miss.
	if _, err := clm("cache", "wait"); err != nil {
		return nil, err
	}
	loadC := func() (float64, error) { return progbinLoad(dev, bin, opts) }
	// Each clmeter process between two of the C floor's, as in the launch rows.
	c, err := loadC()
	if err != nil {
		return nil, err
	}
	floor := []float64{c}
	var ours, ratios, controls []float64
	for r := 0; r < *cacheRuns; r++ {
		o, _, err := clmCachedBuild(args)
		if err != nil {
			return nil, err
		}
		if o == 0 {
			return nil, fmt.Errorf("cache floor: clmeter did not build bench/long.cl from its cache")
		}
		if c, err = loadC(); err != nil {
			return nil, err
		}
		ours, floor = append(ours, o), append(floor, c)
		ratios, controls = appendBracket(ratios, controls, o, floor[r], floor[r+1])
	}
	rw := ratioRow("program cache, warm build: clmeter / C floor", ratios, ours, floor, ns, "<= 1.10", func(v float64) bool { return v <= 1.10 },
		fmt.Sprintf("median of %d rounds' ratios [95%% CI], each clmeter process between two of the C floor's (over their geometric mean); C: read the binary + clCreateProgramWithBinary + clBuildProgram (bench/c/progbin.c), clmeter's build options; clmeter: the hit on the build's path (its lookup runs while the context is made)", *cacheRuns))
	rw.value += "; control, C after / before: " + ciString(controls)
	return []row{rw}, nil
}

// clmCachedBuild runs clmeter with args (a run of bench/long.cl as JSON)
// and returns its program's build time when it came from the cache (0 when
// it did not) and the build options clmeter used.
func clmCachedBuild(args []string) (buildNs float64, opts string, err error) {
	out, err := clm(args...)
	if err != nil {
		return 0, "", err
	}
	var f struct {
		Benchmarks []struct {
			Program struct {
				FromCache bool    `json:"from_cache"`
				BuildTime float64 `json:"build_time_ns"`
				Options   string  `json:"options"`
			} `json:"program"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(out, &f); err != nil || len(f.Benchmarks) == 0 {
		return 0, "", fmt.Errorf("clmeter run bench/long.cl: %v", err)
	}
	p := f.Benchmarks[0].Program
	if !p.FromCache {
		return 0, p.Options, nil
	}
	return p.BuildTime, p.Options, nil
}

// progbinLoad is the C floor of a warm build: bench/c/progbin loads the
// binary bin with options opts on dev and returns its build time.
func progbinLoad(dev *deviceJSON, bin, opts string) (float64, error) {
	out, err := exec.Command(*progbin, "load", fmt.Sprint(dev.Index), bin, opts).Output()
	if err != nil {
		return 0, fmt.Errorf("progbin load: %v", err)
	}
	var c struct {
		BuildNs float64 `json:"build_ns"`
	}
	if err := json.Unmarshal(out, &c); err != nil {
		return 0, fmt.Errorf("progbin load: %v", err)
	}
	return c.BuildNs, nil
}

// clpeakTests returns the clpeak flags selecting every test clmeter has a row
// for, of those this clpeak knows (from its --help), but the kernel latency:
// the dispatch row runs that alone, in its own rounds.
func clpeakTests(path string) []string {
	help, _ := exec.Command(path, "--help").CombinedOutput()
	var flags []string
	for _, b := range clpeakBenchmarks {
		if f := b.flag; strings.Contains(string(help), f+" ") || strings.Contains(string(help), f+"\n") {
			flags = append(flags, f)
		}
	}
	return flags
}
