// Command bench prints the table of 'make bench': the figures that show clmeter
// adds almost nothing to what it measures (launches, cache, host data, memory),
// that its timers agree, that its cache pays, and that what needs no device
// starts without one. Every row is measured side by side in this one run, on
// one device, with its target and MET or NOT MET.
//
//	go run ./bench -clmeter bin/clmeter -cdir bin -device 0
//
// It needs no Go where it runs: 'go build -o DIR/bench ./bench' and the C
// probes of bench/c built beside it (-cdir DIR) are enough.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

var (
	clmeter   = flag.String("clmeter", "bin/clmeter", "the clmeter binary")
	rawlaunch = flag.String("rawlaunch", "bin/rawlaunch", "the plain C launch loop (bench/c/rawlaunch.c)")
	device    = flag.String("device", "", "the device, as clmeter's --device takes it (default: clmeter's default)")
	rounds    = flag.Int("rounds", 5, "alternating rounds of C and clmeter for the overhead rows")
	cdir      = flag.String("cdir", "", "folder holding the C probes (rawlaunch, progbin, saxpyrun); overrides -rawlaunch, -progbin and -saxpyrun")
	skipSuite = flag.Bool("skip-suite", false, "leave out the quick suite's wall time")
	workDir   = flag.String("dir", "", "folder for result files (default: a temporary one)")
	only      = flag.String("rows", "", "comma-separated row groups to run (overhead, agreement, cache, cache-exit, cache-floor, clpeak, startup, suite, hostdata, memory); default all")
)

// A row is one line of the table.
type row struct {
	name, value, target, verdict, how string
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	began := time.Now()
	if *cdir != "" {
		// Absolute: exec looks a bare name ("rawlaunch", from -cdir .) up in PATH.
		if abs, err := filepath.Abs(*cdir); err == nil {
			*cdir = abs
		}
		*rawlaunch, *progbin, *saxpyrun = filepath.Join(*cdir, "rawlaunch"), filepath.Join(*cdir, "progbin"), filepath.Join(*cdir, "saxpyrun")
	}
	dir, cleanup, err := benchDir()
	if err != nil {
		return err
	}
	defer cleanup()
	dev, err := pickDevice()
	if err != nil {
		return err
	}
	fmt.Printf("device %s: %s (%s), %d compute units\n\n", dev.Ref, dev.Device.Name, dev.Platform.Name, dev.Device.ComputeUnits)
	var rows []row
	groupStart := time.Now()
	add := func(r []row, err error) {
		// A miss's store is a detached child that builds and proves in the
		// background: it would take a core from the next row group.
		clm("cache", "wait")
		// Each group's time, for the 5-minute budget of make bench.
		if len(r) > 0 {
			fmt.Fprintf(os.Stderr, "bench: %s ... took %s\n", r[0].name, time.Since(groupStart).Round(100*time.Millisecond))
		}
		groupStart = time.Now()
		if err != nil {
			rows = append(rows, row{name: "(failed)", value: err.Error()})
			return
		}
		rows = append(rows, r...)
	}
	want := func(group string) bool {
		return *only == "" || strings.Contains(","+*only+",", ","+group+",")
	}
	if want("overhead") {
		add(overhead(dev, dir))
	}
	if want("agreement") {
		add(agreement(dev, dir))
	}
	if want("cache") {
		add(cacheTTFRRows(dev, dir))
	}
	if want("cache-exit") {
		add(cacheMissExitRows(dev, dir))
	}
	if want("cache-floor") {
		add(cacheFloorRow(dev, dir))
	}
	if want("clpeak") {
		add(clpeakRows(dev, dir))
	}
	if want("startup") {
		add(startup(dir))
	}
	if !*skipSuite && want("suite") {
		add(quickSuite(dev, dir))
	}
	if want("hostdata") {
		add(hostDataRows(dev))
		add(userMemoryRow(dev, dir))
	}
	if want("memory") {
		add(memoryRows(dev, dir))
	}
	took := time.Since(began)
	// make bench adds the builds and the Go benchmarks to the table's time
	// (docs/OWNCOST.md has the figures).
	rows = append(rows, row{"bench table wall time", took.Round(time.Second).String(), "<= 4m40s (make bench <= 5m with the builds and the Go benchmarks)", met(took <= 4*time.Minute+40*time.Second), "this run, every row group asked for (-rows)"})
	return printRows(rows)
}

// benchDir is the folder the bench works in: -dir (made if missing), or a
// fresh temporary one that cleanup removes.
func benchDir() (dir string, cleanup func(), err error) {
	if *workDir != "" {
		return *workDir, func() {}, os.MkdirAll(*workDir, 0o755)
	}
	d, err := os.MkdirTemp("", "clmeter-bench-")
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}

// printRows writes the bench table to standard output.
func printRows(rows []row) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tVALUE\tTARGET\tMET\tHOW")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.name, r.value, r.target, r.verdict, r.how)
	}
	return tw.Flush()
}

// suitesRun are the suites this bench ran whole on the device: the driver
// has built (and cached) their kernels.
var suitesRun = map[string]bool{}

// deviceJSON is what 'clmeter devices --format json' prints of a device.
type deviceJSON struct {
	Index    int    `json:"index"`
	Ref      string `json:"ref"`
	Platform struct {
		Name string `json:"name"`
	} `json:"platform"`
	Device struct {
		Name          string `json:"name"`
		Type          string `json:"type"`
		ComputeUnits  int    `json:"compute_units"`
		MaxClockMHz   int    `json:"max_clock_mhz"`
		MaxAllocBytes int64  `json:"max_alloc_bytes"`
	} `json:"device"`
}

func pickDevice() (*deviceJSON, error) {
	out, err := clm("devices", "--format", "json")
	if err != nil {
		return nil, err
	}
	var devs []deviceJSON
	if err := json.Unmarshal(out, &devs); err != nil {
		return nil, fmt.Errorf("devices: %w", err)
	}
	if len(devs) == 0 {
		return nil, errors.New("no OpenCL device: run clmeter doctor")
	}
	spec := *device
	if spec == "" {
		spec = os.Getenv("CLMETER_DEVICE")
	}
	// Ask clmeter which device the spec names: a one-sample run prints it.
	for i := range devs {
		d := &devs[i]
		if spec == "" {
			if d.Device.Type == "gpu" {
				return d, nil
			}
			continue
		}
		if spec == fmt.Sprint(d.Index) || spec == d.Ref || strings.Contains(strings.ToLower(d.Device.Name+" "+d.Platform.Name), strings.ToLower(spec)) || strings.Contains(d.Device.Type, strings.ToLower(spec)) {
			return d, nil
		}
	}
	if spec == "" {
		return &devs[0], nil
	}
	return nil, fmt.Errorf("no device matches %q", spec)
}

// overhead compares clmeter's per-launch time of an empty kernel with the plain
// C loop's. The C loop runs before the first round and after every round, so
// each round's clmeter processes sit between two C processes: the round's ratio
// is clmeter's figure over the geometric mean of the C figures on either side
// (a drift across the round cancels), and the C loop's figure after a round
// over its figure before it is a control, what an identical program moves
// between processes on this machine.
func overhead(dev *deviceJSON, dir string) ([]row, error) {
	var raws []rawResult
	runC := func() error {
		var raw rawResult
		out, err := exec.Command(*rawlaunch, fmt.Sprint(dev.Index)).Output()
		if err == nil {
			err = json.Unmarshal(out, &raw)
		}
		if err != nil {
			return fmt.Errorf("rawlaunch: %w", err)
		}
		raws = append(raws, raw)
		return nil
	}
	if err := runC(); err != nil {
		return nil, err
	}
	var clmB2B, clmRT, clmDisp, rB2B, rRT, rDisp, cB2B, cRT, cDisp []float64
	for r := 0; r < *rounds; r++ {
		common := []string{"run", "bench/empty.cl", "--kernel", "empty", "--global", "1", "--device", dev.Ref, "--timer", "host", "--min-samples", "15", "--max-time", "800ms"}
		f, err := clmResult(common...)
		if err != nil {
			return nil, err
		}
		clmB2B = append(clmB2B, f.Benchmarks[0].Measurement.Summary.Median)
		f, err = clmResult(append(common, "--sync-each")...)
		if err != nil {
			return nil, err
		}
		clmRT = append(clmRT, f.Benchmarks[0].Measurement.Summary.Median)
		lf := filepath.Join(dir, "launch-overhead.json")
		if _, err := clm("suite", "launch", "--device", dev.Ref, "--filter", "^launch/dispatch$", "--max-time", "1s", "--no-profile", "-o", lf); err != nil {
			return nil, err
		}
		disp, err := launchDispatch(lf)
		if err != nil {
			return nil, err
		}
		clmDisp = append(clmDisp, disp)
		if err := runC(); err != nil {
			return nil, err
		}
		before, after := raws[r], raws[r+1]
		rB2B, cB2B = appendBracket(rB2B, cB2B, clmB2B[r], before.BackToBack, after.BackToBack)
		rRT, cRT = appendBracket(rRT, cRT, clmRT[r], before.RoundTrip, after.RoundTrip)
		rDisp, cDisp = appendBracket(rDisp, cDisp, disp, before.Dispatch, after.Dispatch)
		fmt.Fprintf(os.Stderr, "bench: launch round %d: back to back %.3f, enqueue+finish %.3f, dispatch %.3f (C after / before: %.3f, %.3f, %.3f)\n",
			r+1, rB2B[r], rRT[r], rDisp[r], cB2B[r], cRT[r], cDisp[r])
	}
	var rawB2B, rawRT, rawDisp, rawWide, rShape []float64
	for _, raw := range raws {
		rawB2B, rawRT, rawDisp = append(rawB2B, raw.BackToBack), append(rawRT, raw.RoundTrip), append(rawDisp, raw.Dispatch)
		if raw.DispatchWide > 0 {
			rawWide, rShape = append(rawWide, raw.DispatchWide), append(rShape, raw.Dispatch/raw.DispatchWide)
		}
	}
	how := fmt.Sprintf("median of %d rounds' ratios [95%% CI], a round's clmeter processes between two of the C loop (over their geometric mean), empty kernel, one work-item", *rounds)
	le := func(v float64) bool { return v <= 1.01 }
	rows := []row{
		ratioRow("launch overhead, back to back: clmeter / C", rB2B, clmB2B, rawB2B, ns, "<= 1.01", le, how+", host timer"),
		ratioRow("launch overhead, enqueue+finish: clmeter / C", rRT, clmRT, rawRT, ns, "<= 1.01", le, how+", host timer"),
		ratioRow("launch dispatch (QUEUED->START): clmeter / C", rDisp, clmDisp, rawDisp, ns, "<= 1.01", le, how+", device timer (clmeter suite launch)"),
		controlRow(cB2B, cRT, cDisp),
	}
	if len(rShape) > 0 {
		r := ratioRow("dispatch, C loop: one work-item / clpeak's shape", rShape, rawDisp, rawWide, ns, "-", func(float64) bool { return true }, "the kernel shape's share of a gap to clpeak's dispatch figure")
		r.verdict = "-"
		rows = append(rows, r)
	}
	return rows, nil
}

// appendBracket appends a round's ratio, ours over the geometric mean of the
// peer's figures before and after it, to ratios, and the peer's after / before
// (the control) to controls.
func appendBracket(ratios, controls []float64, ours, before, after float64) ([]float64, []float64) {
	return append(ratios, ours/math.Sqrt(before*after)), append(controls, after/before)
}

// controlRow reports the launch rows' control: the C loop's figure after a
// round over its figure before it. Its interval is how far this machine moves
// an identical program between processes; a clmeter / C ratio inside it is a
// difference these rounds cannot resolve.
func controlRow(b2b, rt, disp []float64) row {
	return row{"launch rows' control: C loop / C loop a round before", "back to back " + ciString(b2b) + ", enqueue+finish " + ciString(rt) + ", dispatch " + ciString(disp),
		"-", "-", "the same C loop's figures after and before each round; the rounds resolve no ratio closer to 1 than this interval's width"}
}

// launchDispatch reads the dispatch median (ns) of a launch suite result.
func launchDispatch(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var f resultFile
	if err := json.Unmarshal(b, &f); err != nil {
		return 0, err
	}
	for _, bm := range f.Benchmarks {
		if bm.Name == "launch/dispatch" && bm.Measurement != nil {
			return bm.Measurement.Summary.Median, nil
		}
	}
	return 0, errors.New("launch suite: no dispatch figure")
}

// agreement times a kernel of over 100 ms with the device and the host timer.
func agreement(dev *deviceJSON, dir string) ([]row, error) {
	global := dev.Device.ComputeUnits * 1024
	if global < 1024 {
		global = 1024
	}
	iters := 1 << 14
	args := func(iters int, more ...string) []string {
		return append([]string{"run", "bench/long.cl", "--kernel", "spin", "--device", dev.Ref, "--global", fmt.Sprint(global),
			"--arg", fmt.Sprintf("buf:float:%d:zero:out", global), "--arg", fmt.Sprintf("int:%d", iters), "--timer", "both"}, more...)
	}
	// Grow the iteration count until one launch lasts at least 150 ms.
	var med float64
	for {
		f, err := clmResult(args(iters, "--samples", "1", "--warmup", "1x", "--min-sample-time", "1ms")...)
		if err != nil {
			return nil, err
		}
		med = f.Benchmarks[0].Measurement.Summary.Median
		if med >= 150e6 || iters >= 1<<30 {
			break
		}
		grow := 160e6 / math.Max(med, 1)
		iters = int(math.Min(float64(iters)*math.Min(grow*1.1, 100), 1<<30))
	}
	f, err := clmResult(args(iters, "--samples", "5", "--warmup", "1x", "--min-sample-time", "1ms")...)
	if err != nil {
		return nil, err
	}
	m := f.Benchmarks[0].Measurement
	if m.HostSummary == nil {
		return nil, errors.New("agreement: no host timer figures")
	}
	diff := math.Abs(m.HostSummary.Median-m.Summary.Median) / m.Summary.Median
	return []row{{"device vs host timer, long kernel", fmt.Sprintf("%.2f%% (device %s, host %s)", 100*diff, ns(m.Summary.Median), ns(m.HostSummary.Median)),
		"<= 1%", met(diff <= 0.01), fmt.Sprintf("%d iterations x %d work-items, median of 5 launches", iters, global)}}, nil
}

// startup times commands that must never touch OpenCL against one that must.
func startup(dir string) ([]row, error) {
	timeCmd := func(n int, args ...string) (float64, error) {
		var t []float64
		for i := 0; i < n; i++ {
			start := time.Now()
			if _, err := clm(args...); err != nil {
				return 0, err
			}
			t = append(t, float64(time.Since(start)))
		}
		return median(t), nil
	}
	help, err := timeCmd(9, "--help")
	if err != nil {
		return nil, err
	}
	devs, err := timeCmd(5, "devices")
	if err != nil {
		return nil, err
	}
	rows := []row{
		{"start-up: clmeter --help", ns(help), "no OpenCL", met(help < devs), "median of 9 runs"},
		{"start-up: clmeter devices", ns(devs), "loads OpenCL", "-", "median of 5 runs"},
	}
	// clmeter report reads a result file without touching OpenCL.
	res := filepath.Join(dir, "report-input.json")
	if _, err := clm("run", "copy", "--size", "4Ki", "--samples", "3", "--min-sample-time", "1ms", "-o", res); err != nil {
		return nil, err
	}
	if _, err := clm("report", "--help"); err == nil {
		rep, err := timeCmd(9, "report", res)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{"start-up: clmeter report FILE", ns(rep), "no OpenCL", met(rep < devs), "median of 9 runs"})
	}
	return rows, nil
}

func median(v []float64) float64 {
	s := append([]float64{}, v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func ns(v float64) string {
	return time.Duration(v).Round(time.Duration(math.Max(1, math.Pow(10, math.Floor(math.Log10(math.Max(v, 1)))-2)))).String()
}

func met(ok bool) string {
	if ok {
		return "MET"
	}
	return "NOT MET"
}

// quickSuite times the quick suite, the main job of 'make run'.
func quickSuite(dev *deviceJSON, dir string) ([]row, error) {
	start := time.Now()
	if _, err := clm("suite", "quick", "--device", dev.Ref, "-o", filepath.Join(dir, "quick.json")); err != nil {
		return nil, err
	}
	suitesRun["quick"] = true
	took := time.Since(start)
	return []row{{"quick suite wall time", took.Round(100 * time.Millisecond).String(), "about 1 min on 2-core PoCL", met(took < 90*time.Second), "one run of clmeter suite quick"}}, nil
}
