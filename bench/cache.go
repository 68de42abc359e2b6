package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

var (
	cacheTrials   = flag.Int("cache-trials", 3, "fresh processes per mode of the cache rows (clmeter cache bench --trials)")
	cachePrograms = flag.String("cache-programs", "small,examples/imaging/imaging.cl", "programs of the cache rows, comma-separated (built-ins small and large, or .cl files)")
	exitPairs     = flag.Int("exit-pairs", 3, "pairs of fresh processes of the cache-exit row")
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

// cacheMissExitRows time whole `clmeter run` processes of a 32-kernel user
// file on empty caches (clmeter's and the driver's): a miss, whose binary a
// detached child stores, against --no-cache, pair by pair, waiting for the
// store child between pairs (untimed). The process must exit within 5% of
// --no-cache: the store must not hold the exit. A third process then hits
// the entry the child stored; its build must beat the source build.
func cacheMissExitRows(dev *deviceJSON, dir string) ([]row, error) {
	const kernels = 32
	pairs := *exitPairs
	var src strings.Builder
	for i := 0; i < kernels; i++ {
		fmt.Fprintf(&src, "__kernel void k%d(__global float *x, __global const float *y, float a, int n) {\n"+
			"\tint i = get_global_id(0);\n\tif (i < n) { float v = y[i]; for (int j = 0; j < %d; j++) v = v * a + %d.0f; x[i] = v; }\n}\n", i, i%4+1, i)
	}
	file := filepath.Join(dir, "k32.cl")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		return nil, err
	}
	args := []string{"run", file, "--kernel", "k0", "--global", "N", "--arg", "buf:float:N:zero:out", "--arg", "buf:float:N:rand",
		"--arg", "float:2", "--arg", "int:N", "--size", "1Ki", "--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x", "--no-profile", "--device", dev.Ref, "--format", "json"}
	// timed runs args plus extra with a fresh PoCL cache and returns the
	// process's wall time and its result file.
	timed := func(n int, extra ...string) (time.Duration, []byte, error) {
		cmd := exec.Command(*clmeter, append(append([]string{}, args...), extra...)...)
		cmd.Env = append(os.Environ(), "POCL_CACHE_DIR="+filepath.Join(dir, fmt.Sprintf("pocl-exit-%d-%d", n, len(extra))))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			return 0, nil, fmt.Errorf("clmeter %s: %v: %s", strings.Join(cmd.Args[1:], " "), err, strings.TrimSpace(stderr.String()))
		}
		return time.Since(start), out, nil
	}
	var ratios, miss, cold []float64
	var cacheDir string
	for i := 0; i <= pairs; i++ { // the first pair warms up
		cacheDir = filepath.Join(dir, fmt.Sprint("clm-exit-", i))
		m, _, err := timed(i, "--cache-dir", cacheDir)
		if err != nil {
			return nil, err
		}
		if _, err := clm("cache", "wait", "--cache-dir", cacheDir); err != nil {
			return nil, err
		}
		c, _, err := timed(i, "--no-cache")
		if err != nil {
			return nil, err
		}
		if i > 0 {
			ratios, miss, cold = append(ratios, m.Seconds()/c.Seconds()), append(miss, m.Seconds()), append(cold, c.Seconds())
		}
	}
	// A hit on the last pair's entry, on the PoCL cache its miss filled.
	_, out, err := timed(pairs, "--cache-dir", cacheDir)
	if err != nil {
		return nil, err
	}
	var f struct {
		Benchmarks []struct {
			Program *struct {
				FromCache bool    `json:"from_cache"`
				Build     float64 `json:"build_time_ns"`
			} `json:"program"`
		} `json:"benchmarks"`
	}
	hitNote := "the next run: no build figure"
	if json.Unmarshal(out, &f) == nil && len(f.Benchmarks) > 0 && f.Benchmarks[0].Program != nil {
		p := f.Benchmarks[0].Program
		hitNote = fmt.Sprintf("the next run builds in %.3g ms (from clmeter's cache: %v)", p.Build/1e6, p.FromCache)
	}
	r, lo, hi := medianCI(ratios)
	return []row{{"cache, 32-kernel file: process wall time of a miss / --no-cache",
		fmt.Sprintf("%.2fx, 95%% CI %.2f-%.2fx (%.3g s vs %.3g s); %s", r, lo, hi, median(miss), median(cold), hitNote),
		"<= 1.05", met(r <= 1.05), fmt.Sprintf("median of %d pairs of fresh processes on empty caches (clmeter's and PoCL's); the store child awaited between pairs, untimed", pairs)}}, nil
}
