package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

var (
	cacheTrials   = flag.Int("cache-trials", 2, "fresh processes per mode of the cache rows (clmeter cache bench --trials)")
	cachePrograms = flag.String("cache-programs", "small,examples/imaging/imaging.cl", "programs of the cache rows, comma-separated (built-ins small and large, or .cl files)")
	exitPairs     = flag.Int("exit-pairs", 40, "the most pairs of fresh processes of the cache-exit row (at least 6; it stops sooner once the median's 95% CI is within 5%)")
	exitTime      = flag.Duration("exit-time", 20*time.Second, "time of pairs after which the cache-exit row adds no more (once it has 6)")
)

// cacheBenchFile is the part of a 'clmeter cache bench' result file the cache
// rows read.
type cacheBenchFile struct {
	Benchmarks []struct {
		Name    string            `json:"name"`
		Params  map[string]string `json:"params"`
		Figures []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"figures"`
		Extra struct {
			Policy struct {
				Family string `json:"family"`
				On     bool   `json:"on"`
			} `json:"policy"`
		} `json:"extra"`
	} `json:"benchmarks"`
}

// cacheTTFRRows runs 'clmeter cache bench' (fresh processes per trial, modes
// interleaved) on the built-in small and large programs and on a library with
// includes (examples/imaging), and checks the time to first result (TTFR):
// clmeter's defaults against the driver's cache alone, a first run (a miss)
// against --no-cache, and clmeter's cache alone against the driver's.
func cacheTTFRRows(dev *deviceJSON, dir string) ([]row, error) {
	trials := *cacheTrials
	out := filepath.Join(dir, "cache-bench.json")
	progs := strings.Split(*cachePrograms, ",")
	args := append([]string{"cache", "bench"}, progs...)
	args = append(args, "--trials", fmt.Sprint(trials), "--device", dev.Ref, "-o", out)
	if _, err := clm(args...); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var f cacheBenchFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("cache bench result: %w", err)
	}
	ttfr, wall, less, work := map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]float64{}
	family, on := "", false
	for _, bm := range f.Benchmarks {
		family, on = bm.Extra.Policy.Family, bm.Extra.Policy.On
		for _, fig := range bm.Figures {
			switch fig.Name {
			case "time to first result":
				ttfr[bm.Name] = fig.Value
			case "process wall time":
				wall[bm.Name] = fig.Value
			case "time to first result less enumeration":
				less[bm.Name] = fig.Value
			case "cache work before the first result":
				work[bm.Name] = fig.Value
			}
		}
	}
	pocl := family == "pocl"
	how := fmt.Sprintf("median TTFR of %d fresh processes per mode (clmeter cache bench)", trials)
	var rows []row
	for _, prog := range progs {
		name := filepath.Base(prog)
		cold, drv, ours, both, miss := ttfr[prog+"/cold"], ttfr[prog+"/driver cache"], ttfr[prog+"/clmeter cache"], ttfr[prog+"/both caches"], ttfr[prog+"/miss"]
		if cold == 0 || drv == 0 || ours == 0 || both == 0 || miss == 0 {
			return nil, fmt.Errorf("cache bench: no TTFR figures for %s", prog)
		}
		// clmeter's defaults: both caches where its policy is on, else the driver's alone.
		def, defNote, defMode := both, "both caches warm", "/both caches"
		if !on {
			def, defNote, defMode = drv, "clmeter's cache off by policy", "/driver cache"
		}
		exEnum := fmt.Sprintf("; less enumeration %.2fx (%.4g ms vs %.4g ms)", less[prog+"/driver cache"]/less[prog+defMode], less[prog+"/driver cache"], less[prog+defMode])
		// The defaults' TTFR must not exceed the driver's cache alone's: a ratio of
		// at least 1, and 1.5 on PoCL.
		target, ok := ">= 1 (>= 1.5 on PoCL)", drv/def >= 1
		if pocl {
			ok = drv/def >= 1.5
		}
		rows = append(rows,
			row{"cache, " + name + ": TTFR driver's cache alone / clmeter's defaults (" + defNote + ")", fmt.Sprintf("%.2fx (%.4g ms vs %.4g ms)", drv/def, drv, def) + exEnum, target, met(ok), how},
			row{"cache, " + name + ": TTFR of a miss / --no-cache", fmt.Sprintf("%.2fx (%.4g ms vs %.4g ms); the cache's own work in it %.3g ms", miss/cold, miss, cold, work[prog+"/miss"]),
				"<= 1.05", met(miss/cold <= 1.05), how + "; the store runs after the work"},
			row{"cache, " + name + ": wall time of a miss / --no-cache", fmt.Sprintf("%.2fx (%.4g ms vs %.4g ms)", wall[prog+"/miss"]/wall[prog+"/cold"], wall[prog+"/miss"], wall[prog+"/cold"]), "-", "-", "process start to exit, the store included"})
		r := row{"cache, " + name + ": TTFR clmeter's cache alone / driver's cache alone", fmt.Sprintf("%.2fx (%.4g ms vs %.4g ms); less enumeration %.2fx", ours/drv, ours, drv,
			less[prog+"/clmeter cache"]/less[prog+"/driver cache"]), "-", "-", how}
		if pocl {
			r.target, r.verdict = "<= 1 on PoCL", met(ours <= drv)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// The cache-exit row's design: pairs of whole processes, each pair's ratio one
// sample, added until the median's 95% CI is within exitCI of it (at least
// exitMinPairs), -exit-pairs, or -exit-time of pairs (at least
// exitFewestPairs, the fewest whose extremes cover 97%). A pair's processes
// take about a second each; a miss's store child, ended
// as soon as the miss has exited, costs nothing (see storeChildren).
const (
	exitKernels     = 32
	exitMinPairs    = 10
	exitFewestPairs = 6
	exitCI          = 0.05
)

// cacheMissExitRows time whole `clmeter run` processes of a 32-kernel user
// file on empty caches (clmeter's and the driver's): a miss, whose binary a
// detached child stores, against --no-cache. The pairs alternate which of the
// two runs first; the row is the median of the pairs' ratios with a
// distribution-free 95% CI (order statistics), and each pair is printed on
// stderr. The process must exit within 5% of --no-cache (the CI's upper end
// at most 1.05): the store must not hold the exit. The warm-up pair's store
// child is awaited, and a third process hits its entry: its build must beat
// the source build.
func cacheMissExitRows(dev *deviceJSON, dir string) ([]row, error) {
	e, err := newExitRun(dev, dir)
	if err != nil {
		return nil, err
	}
	children := newStoreChildren()
	defer children.close()
	hitNote, err := e.warmUp()
	if err != nil {
		return nil, err
	}
	var ratios, miss, cold []float64
	start := time.Now()
	most := max(*exitPairs, exitFewestPairs)
	for i := 1; i <= most; i++ {
		m, c, err := e.pair(i, children)
		if err != nil {
			return nil, err
		}
		ratios, miss, cold = append(ratios, m.Seconds()/c.Seconds()), append(miss, m.Seconds()), append(cold, c.Seconds())
		fmt.Fprintf(os.Stderr, "bench: cache-exit pair %d (%s first): miss %.3g s, --no-cache %.3g s, ratio %.3f\n", i, map[bool]string{true: "miss", false: "--no-cache"}[i%2 == 1], m.Seconds(), c.Seconds(), ratios[i-1])
		r, lo, hi := medianCI(ratios)
		ciOK := hi-r <= exitCI*r && r-lo <= exitCI*r
		if i >= exitMinPairs && ciOK || i >= exitFewestPairs && time.Since(start) > *exitTime {
			break
		}
	}
	r, lo, hi := medianCI(ratios)
	return []row{{"cache, 32-kernel file: process wall time of a miss / --no-cache",
		fmt.Sprintf("%.2fx, 95%% CI %.2f-%.2fx, %d pairs, ratios %.2f-%.2f (%.3g s vs %.3g s); %s", r, lo, hi, len(ratios), slices.Min(ratios), slices.Max(ratios), median(miss), median(cold), hitNote),
		"<= 1.05 (the CI's upper end)", met(hi <= 1.05),
		fmt.Sprintf("median of pairs of fresh processes on empty caches (clmeter's and PoCL's), order alternating, stopped at a CI within %.0f%% (%d pairs or more), %d pairs or %s of pairs; %s; each pair on stderr", exitCI*100, exitMinPairs, most, *exitTime, children.how())}}, nil
}

// exitRun runs the processes of the cache-exit row.
type exitRun struct {
	dir  string
	args []string
}

// newExitRun writes the 32-kernel file and the run's arguments.
func newExitRun(dev *deviceJSON, dir string) (*exitRun, error) {
	var src strings.Builder
	for i := 0; i < exitKernels; i++ {
		fmt.Fprintf(&src, "__kernel void k%d(__global float *x, __global const float *y, float a, int n) {\n"+
			"\tint i = get_global_id(0);\n\tif (i < n) { float v = y[i]; for (int j = 0; j < %d; j++) v = v * a + %d.0f; x[i] = v; }\n}\n", i, i%4+1, i)
	}
	file := filepath.Join(dir, "k32.cl")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		return nil, err
	}
	return &exitRun{dir: dir, args: []string{"run", file, "--kernel", "k0", "--global", "N", "--arg", "buf:float:N:zero:out", "--arg", "buf:float:N:rand",
		"--arg", "float:2", "--arg", "int:N", "--size", "1Ki", "--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x", "--no-profile", "--device", dev.Ref, "--format", "json"}}, nil
}

// timed runs the row's clmeter run plus extra on the PoCL cache named pocl
// (a fresh folder the first time) and returns the process's wall time, from
// start to exit, and its result file.
func (e *exitRun) timed(pocl string, extra ...string) (time.Duration, []byte, error) {
	cmd := exec.Command(*clmeter, append(append([]string{}, e.args...), extra...)...)
	cmd.Env = append(os.Environ(), "POCL_CACHE_DIR="+filepath.Join(e.dir, "pocl-exit-"+pocl))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		return 0, nil, fmt.Errorf("clmeter %s: %v: %s", strings.Join(cmd.Args[1:], " "), err, strings.TrimSpace(stderr.String()))
	}
	return time.Since(start), out, nil
}

// pair times a miss and a --no-cache run on fresh caches, the miss first in
// odd pairs, and ends the miss's store child before the next process starts.
func (e *exitRun) pair(i int, children *storeChildren) (miss, cold time.Duration, err error) {
	cacheDir := filepath.Join(e.dir, fmt.Sprint("clm-exit-", i))
	runMiss := func() error {
		var err error
		if miss, _, err = e.timed(fmt.Sprint(i, "-miss"), "--cache-dir", cacheDir); err != nil {
			return err
		}
		return children.end(cacheDir)
	}
	runCold := func() error {
		var err error
		cold, _, err = e.timed(fmt.Sprint(i, "-cold"), "--no-cache")
		return err
	}
	first, second := runMiss, runCold
	if i%2 == 0 {
		first, second = runCold, runMiss
	}
	if err := first(); err != nil {
		return 0, 0, err
	}
	return miss, cold, second()
}

// warmUp runs an untimed pair (a miss and --no-cache), waits for the miss's
// store child, then hits the entry it stored, on the PoCL cache the miss
// filled, and says how that build went.
func (e *exitRun) warmUp() (string, error) {
	cacheDir := filepath.Join(e.dir, "clm-exit-0")
	if _, _, err := e.timed("0-miss", "--cache-dir", cacheDir); err != nil {
		return "", err
	}
	if err := waitStores(cacheDir); err != nil {
		return "", err
	}
	if _, _, err := e.timed("0-cold", "--no-cache"); err != nil {
		return "", err
	}
	_, out, err := e.timed("0-miss", "--cache-dir", cacheDir)
	if err != nil {
		return "", err
	}
	var f struct {
		Benchmarks []struct {
			Program *struct {
				FromCache bool    `json:"from_cache"`
				Build     float64 `json:"build_time_ns"`
			} `json:"program"`
		} `json:"benchmarks"`
	}
	if json.Unmarshal(out, &f) != nil || len(f.Benchmarks) == 0 || f.Benchmarks[0].Program == nil {
		return "the next run: no build figure", nil
	}
	p := f.Benchmarks[0].Program
	return fmt.Sprintf("the next run builds in %.3g ms (from clmeter's cache: %v)", p.Build/1e6, p.FromCache), nil
}

// waitStores waits until no store child holds a lock of the cache in cacheDir.
func waitStores(cacheDir string) error {
	_, err := clm("cache", "wait", "--cache-dir", cacheDir)
	return err
}
