package main

// Rows on clmeter's own cost around a measurement (issue #27): how fast it
// prepares a benchmark's inputs against the machine's copy bandwidth, its time
// to first result against a plain C program doing the same set-up, and its
// peak resident memory against the bytes of the benchmark's buffers.

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

var (
	saxpyrun   = flag.String("saxpyrun", "bin/saxpyrun", "the plain C peer of 'clmeter run saxpy' (bench/c/saxpyrun.c)")
	hostRounds = flag.Int("host-rounds", 3, "alternating rounds of the C peer and 'clmeter run saxpy' for the host data rows")
	hostSize   = flag.String("host-size", "64Mi", "elements of the saxpy run of the host data and memory rows")
)

// maxRSS is a finished process's peak resident memory in bytes (0 when the
// system does not tell).
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // Linux reports KiB
	}
	return 0
}

// hostMemory is what the C peer measures of the machine's host memory
// (saxpyrun copy), in bytes/s.
type hostMemory struct {
	Copy       float64 `json:"copy_bytes_per_s"`            // median of 5 memcpy between buffers already touched
	FirstTouch float64 `json:"first_touch_bytes_per_s"`     // one memset of fresh memory on one thread
	TouchAll   float64 `json:"first_touch_all_bytes_per_s"` // fresh memory backed (MADV_POPULATE_WRITE) and set on every core
	Threads    int     `json:"threads"`                     // the cores of TouchAll
}

// hostMemoryRates measures the machine's host memory for n-byte buffers in the
// C peer's process: buffers of this one would count in every later child's
// ru_maxrss (a child starts as a copy of it).
func hostMemoryRates(n int64) (hostMemory, error) {
	var m hostMemory
	out, err := exec.Command(*saxpyrun, "copy", fmt.Sprint(n)).Output()
	if err != nil {
		return m, fmt.Errorf("saxpyrun copy: %w", err)
	}
	if err := json.Unmarshal(out, &m); err != nil || m.Copy <= 0 || m.FirstTouch <= 0 || m.TouchAll <= 0 {
		return m, fmt.Errorf("saxpyrun copy: %q", out)
	}
	return m, nil
}

// saxpyC is what bench/c/saxpyrun.c prints.
type saxpyC struct {
	HostData    float64 `json:"host_data_ns"`
	Upload      float64 `json:"upload_ns"`
	FirstResult float64 `json:"first_result_ns"`
	Build       float64 `json:"build_ns"`
	FirstLaunch float64 `json:"first_launch_ns"`
}

// saxpyClm is the part of 'clmeter run saxpy --format json' the rows read.
type saxpyClm struct {
	Benchmarks []struct {
		Program *struct {
			Build float64 `json:"build_time_ns"`
		} `json:"program"`
		Measurement *struct {
			HostPrep float64 `json:"host_prep_ns"`
			Upload   float64 `json:"upload_ns"`
			Cold     struct {
				Host float64 `json:"host_ns"`
			} `json:"cold"`
		} `json:"measurement"`
	} `json:"benchmarks"`
}

// hostDataRows runs 'clmeter run saxpy --size 64Mi' (one sample, one phase
// run) and the C peer alternately. The set-up to the first result is the sum
// of the parts each reports: build, host data, upload, first launch (neither
// counts enumeration and context, alike in both).
func hostDataRows(dev *deviceJSON) ([]row, error) {
	n, err := parseCount(*hostSize)
	if err != nil {
		return nil, err
	}
	inputBytes := float64(2 * 4 * n) // x and y, float
	hm, err := hostMemoryRates(4 * n)
	if err != nil {
		return nil, err
	}
	bw := hm.Copy
	var rate, rateRatio, hostC, hostClm, hostRatio, ttfrC, ttfrClm, ttfrRatio, wallC, wallClm, wallRatio, rss []float64
	for r := 0; r < *hostRounds; r++ {
		start := time.Now()
		out, err := exec.Command(*saxpyrun, fmt.Sprint(dev.Index), fmt.Sprint(n)).Output()
		if err != nil {
			return nil, fmt.Errorf("saxpyrun: %w", err)
		}
		wc := time.Since(start).Seconds()
		var c saxpyC
		if err := json.Unmarshal(out, &c); err != nil {
			return nil, fmt.Errorf("saxpyrun: %w", err)
		}
		start = time.Now()
		out, peak, err := clmRSS("run", "saxpy", "--size", *hostSize, "--device", dev.Ref, "--samples", "1", "--min-samples", "1",
			"--warmup", "1x", "--min-sample-time", "1ms", "--format", "json")
		if err != nil {
			return nil, err
		}
		wm := time.Since(start).Seconds()
		var f saxpyClm
		if err := json.Unmarshal(out, &f); err != nil || len(f.Benchmarks) == 0 || f.Benchmarks[0].Measurement == nil || f.Benchmarks[0].Program == nil {
			return nil, fmt.Errorf("clmeter run saxpy: no measurement (%v)", err)
		}
		m := f.Benchmarks[0].Measurement
		tm := f.Benchmarks[0].Program.Build + m.HostPrep + m.Upload + m.Cold.Host
		tc := c.Build + c.HostData + c.Upload + c.FirstLaunch
		rate = append(rate, inputBytes/m.HostPrep) // GB/s
		rateRatio = append(rateRatio, inputBytes/m.HostPrep/(bw/1e9))
		hostC, hostClm, hostRatio = append(hostC, c.HostData), append(hostClm, m.HostPrep), append(hostRatio, m.HostPrep/c.HostData)
		ttfrC, ttfrClm, ttfrRatio = append(ttfrC, tc), append(ttfrClm, tm), append(ttfrRatio, tm/tc)
		wallC, wallClm, wallRatio = append(wallC, wc*1e9), append(wallClm, wm*1e9), append(wallRatio, wm/wc)
		rss = append(rss, float64(peak))
	}
	how := fmt.Sprintf("clmeter run saxpy --size %s (one sample, one phase run) and bench/c/saxpyrun.c alternated, median of %d rounds [95%% CI]", *hostSize, *hostRounds)
	ge := func(v float64) bool { return v >= 0.25 }
	le15 := func(v float64) bool { return v <= 1.5 }
	hostRow := ratioRow("host data: input fill rate / host copy bandwidth", rateRatio, rate, []float64{bw / 1e9}, gbs, ">= 0.25", ge,
		how+fmt.Sprintf("; fill rate = %s of inputs / clmeter's host data time; copy bandwidth of %s buffers in this process", bytesSI(inputBytes), bytesSI(4*float64(n))))
	hostVsC := ratioRow("host data time, run saxpy "+*hostSize+": clmeter / C", hostRatio, hostClm, hostC, ns, "-", func(float64) bool { return true },
		"allocate + fill x and y; the C peer fills on one thread, clmeter on every core")
	hostVsC.verdict = "-"
	ttfr := ratioRow("time to first result, run saxpy "+*hostSize+": clmeter / C", ttfrRatio, ttfrClm, ttfrC, ns, "<= 1.5", le15,
		how+"; build + host data + upload + first launch as each reports them")
	wall := ratioRow("whole process, run saxpy "+*hostSize+": clmeter / C", wallRatio, wallClm, wallC, ns, "-", func(float64) bool { return true },
		"the same processes' wall time: set-up, 3 launches, the check against a CPU reference, one phase run")
	wall.verdict = "-"
	bufs := inputBytes
	limit := 1.25*bufs + 200e6
	peak := median(rss)
	mem := row{"peak memory, run saxpy " + *hostSize, fmt.Sprintf("%.2fx the limit (%s vs %s; buffers %s)", peak/limit, bytesSI(peak), bytesSI(limit), bytesSI(bufs)),
		"<= 1.25 x buffers + 200 MB", met(peak <= limit), "median ru_maxrss of the same clmeter processes"}
	// Inputs land in fresh memory, which the system backs on its first
	// touch: where that is slower than copying (a VM that takes a fault for
	// each page: docs/OWNCOST.md), it bounds the fill rate of clmeter and of any C program alike.
	touchRow := row{"host data: input fill rate / first touch of fresh memory on every core (C)",
		fmt.Sprintf("%.3f (%s vs %s; one thread without MADV_POPULATE_WRITE %s)", median(rate)*1e9/hm.TouchAll, gbs(median(rate)), gbs(hm.TouchAll/1e9), gbs(hm.FirstTouch/1e9)),
		"-", "-", fmt.Sprintf("saxpyrun copy: %s of fresh memory backed (MADV_POPULATE_WRITE) and set (memset) on %d threads, as a careful C program fills the system's own pages; the bound of the row above where first touch is slower than copy", bytesSI(4*float64(n)), hm.Threads)}
	return []row{hostRow, touchRow, hostVsC, ttfr, wall, mem}, nil
}

// userAxpy is a user's kernel for the user-kernel memory row: the saxpy's
// arithmetic, its inputs given as --arg buffers.
const userAxpy = `__kernel void axpy(__global float *y, __global const float *x, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
`

// userMemoryRow runs 'clmeter run axpy.cl' over two random buffers of
// -host-size floats (one sample, one phase run) and compares its peak resident
// memory with the built-in saxpy's limit: 1.25 x buffers + 200 MB. A first
// run at 1Mi builds the program (the driver's compiler memory is not
// clmeter's; see memoryRows).
func userMemoryRow(dev *deviceJSON, dir string) ([]row, error) {
	n, err := parseCount(*hostSize)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, "axpy.cl")
	if err := os.WriteFile(src, []byte(userAxpy), 0o644); err != nil {
		return nil, err
	}
	args := func(size string) []string {
		return []string{"run", src, "--kernel", "axpy", "--global", size, "--arg", "buf:float:" + size + ":rand",
			"--arg", "buf:float:" + size + ":rand", "--arg", "float:2", "--device", dev.Ref,
			"--samples", "1", "--min-samples", "1", "--warmup", "1x", "--min-sample-time", "1ms", "--format", "json"}
	}
	if _, err := clm(args("1Mi")...); err != nil {
		return nil, err
	}
	_, peak, err := clmRSS(args(*hostSize)...)
	if err != nil {
		return nil, err
	}
	bufs := float64(2 * 4 * n)
	limit, p := 1.25*bufs+200e6, float64(peak)
	return []row{{"peak memory, run axpy.cl (a user's kernel) " + *hostSize, fmt.Sprintf("%.2fx the limit (%s vs %s; buffers %s)", p/limit, bytesSI(p), bytesSI(limit), bytesSI(bufs)),
		"<= 1.25 x buffers + 200 MB", met(p <= limit), "ru_maxrss of clmeter run axpy.cl --arg buf:float:N:rand (y and x) --arg float:2, one sample, one phase run, after a run at 1Mi that builds it"}}, nil
}

// bytesSI prints a byte count in SI units (MB, GB).
func bytesSI(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0f MB", b/1e6)
	}
	return fmt.Sprintf("%.0f kB", b/1e3)
}

// parseCount reads an element count: a number with an optional Ki, Mi or Gi.
func parseCount(s string) (int64, error) {
	var n int64
	var suffix string
	if _, err := fmt.Sscanf(s, "%d%s", &n, &suffix); err != nil && suffix == "" {
		if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
			return 0, fmt.Errorf("-host-size %q: want a count such as 64Mi", s)
		}
	}
	switch suffix {
	case "":
	case "Ki":
		n <<= 10
	case "Mi":
		n <<= 20
	case "Gi":
		n <<= 30
	default:
		return 0, fmt.Errorf("-host-size %q: want a count such as 64Mi", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("-host-size %q: want a positive count", s)
	}
	return n, nil
}

// memoryRows runs each suite with its buffers bounded by --max-memory and
// short sampling, and compares its peak resident memory with 1.25 x the
// budget of one benchmark's buffers + 200 MB.
func memoryRows(dev *deviceJSON, dir string) ([]row, error) {
	const budget = 256 << 20
	limit := 1.25*budget + 200e6
	// warm is the budget of the first run's buffers: it builds the same
	// kernels and launches them in the same work-groups at 16 MiB as at 256,
	// so the driver's caches end the same, in less time (docs/OWNCOST.md has
	// the figures). Transfers' first run took 5.3 s
	// either way (its sizes follow --max-size), so it keeps the budget.
	suites := []struct {
		name string
		args []string
		warm string
	}{
		{"quick", nil, "256MiB"},
		{"peaks", []string{"--filter", "peaks/(bandwidth/[a-z]+/float4$|cache-bandwidth/[a-z]+/float4$|local-bandwidth/float4$|image-bandwidth|compute/float/4$)"}, "16MiB"},
		{"streams", nil, "16MiB"},
		{"launch", nil, "256MiB"},
		{"transfers", []string{"--max-size", "64MiB"}, "256MiB"},
	}
	var rows []row
	cacheDir, hadCacheDir := os.LookupEnv("CLMETER_CACHE_DIR")
	for _, s := range suites {
		args := append([]string{"suite", s.name, "--device", dev.Ref, "--no-profile"}, s.args...)
		// A first run warms the driver's own caches, clmeter's cache off: a
		// driver that compiles in the process (PoCL's LLVM) otherwise holds
		// 120-150 MB more the first time it builds a kernel, whoever calls it
		// (a C program building saxpy from source on PoCL 3.1: 83 MB before
		// the build, 221 MB after, 118 MB of it live). That is the driver's;
		// the row is about what clmeter keeps.
		start := time.Now()
		first := "first run at " + s.warm + " " // of this suite in this bench
		var cold int64
		if suitesRun[s.name] {
			first = "suite run before"
		} else {
			var err error
			_, cold, err = clmRSS(append(args, "--max-memory", s.warm, "--no-cache", "--max-time", "1ms", "--min-samples", "1", "-o", fmt.Sprintf("%s/memory-%s-first.json", dir, s.name))...)
			if err != nil {
				return nil, err
			}
			first += bytesSI(float64(cold))
		}
		os.Setenv("CLMETER_CACHE_DIR", filepath.Join(dir, "memory-cache-"+s.name))
		_, peak, err := clmRSS(append(args, "--max-memory", "256MiB", "--max-time", "100ms", "--min-samples", "3", "-o", fmt.Sprintf("%s/memory-%s.json", dir, s.name))...)
		clm("cache", "wait") // its detached store child, before the next suite
		restoreEnv("CLMETER_CACHE_DIR", cacheDir, hadCacheDir)
		if err != nil {
			return nil, err
		}
		p := float64(peak)
		rows = append(rows, row{"peak memory, suite " + s.name, fmt.Sprintf("%.2fx the limit (%s vs %s; %s) in %s", p/limit, bytesSI(p), bytesSI(limit), first, time.Since(start).Round(100*time.Millisecond)),
			"<= 1.25 x 256 MiB + 200 MB", met(p <= limit), "ru_maxrss of clmeter suite " + s.name + " --max-memory 256MiB (the budget of one benchmark's buffers), 100 ms a benchmark, clmeter's cache empty, after a first run (--no-cache, 1 ms a benchmark, 16 MiB for peaks and streams) that warms the driver's own caches, or the suite's run in an earlier row"})
	}
	return rows, nil
}

// restoreEnv sets name back to value, or unsets it when it was not set.
func restoreEnv(name, value string, was bool) {
	if was {
		os.Setenv(name, value)
	} else {
		os.Unsetenv(name)
	}
}
