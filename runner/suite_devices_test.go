package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// quickOnAll is suite quick --small on every device, with the result file
// in a temporary folder.
func quickOnAll(t *testing.T, parallel int) SuiteOptions {
	return SuiteOptions{Suite: "quick", Small: true, Parallel: parallel, ProfileUse: ProfileUse{NoProfile: true},
		SessionOptions: SessionOptions{Device: "all", Settings: measure.Settings{MinSamples: 3, MaxTime: 200 * time.Millisecond}},
		OutputOptions:  OutputOptions{Output: filepath.Join(t.TempDir(), "r.json"), Format: "json"}}
}

// byDevice splits a file's benchmarks by device index, checking that each
// device's come together (device order, as sequential runs give).
func byDevice(t *testing.T, bs []results.Benchmark) (order []string, by map[string][]results.Benchmark) {
	t.Helper()
	by = map[string][]results.Benchmark{}
	for _, b := range bs {
		k := b.Device.Index
		if len(order) == 0 || order[len(order)-1] != k {
			if _, seen := by[k]; seen {
				t.Errorf("device %s's benchmarks are not together: %s after another device's", k, b.Name)
			}
			order = append(order, k)
		}
		by[k] = append(by[k], b)
	}
	return order, by
}

// overlapping counts the pairs of sampled benchmarks, one of each device,
// whose sampling windows overlap.
func overlapping(a, b []results.Benchmark) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x.Measurement != nil && y.Measurement != nil && x.Measurement.Window.Overlaps(y.Measurement.Window) {
				n++
			}
		}
	}
	return n
}

// TestSuiteTwoDevicesAtOnce runs suite quick on two identical PoCL devices:
// with --parallel 2 their sampling windows overlap; by default (CPU devices
// run alone) they never do. Either way the file holds both devices'
// benchmarks, the same names, in device order.
func TestSuiteTwoDevicesAtOnce(t *testing.T) {
	if !devtest.InChild(t, 10*time.Minute, devtest.PoCLPair(t)...) {
		return
	}
	for _, parallel := range []int{2, 0} {
		o := quickOnAll(t, parallel)
		var stdout, stderr bytes.Buffer
		if err := Suite(context.Background(), o, &stdout, &stderr); err != nil {
			t.Fatalf("--parallel %d: %v\n%s", parallel, err, stderr.String())
		}
		f, err := results.Read(o.Output)
		if err != nil {
			t.Fatal(err)
		}
		order, by := byDevice(t, f.Benchmarks)
		if len(order) != 2 || order[0] != "0:0" || order[1] != "0:1" {
			t.Fatalf("--parallel %d: devices %v, want 0:0 then 0:1", parallel, order)
		}
		a, b := by["0:0"], by["0:1"]
		if len(a) != len(b) || len(a) < 10 {
			t.Errorf("--parallel %d: %d and %d benchmarks", parallel, len(a), len(b))
		}
		for i := range min(len(a), len(b)) {
			if a[i].Name != b[i].Name || a[i].Error != "" || b[i].Error != "" {
				t.Errorf("--parallel %d: benchmark %d: %q (%s) and %q (%s)", parallel, i, a[i].Name, a[i].Error, b[i].Name, b[i].Error)
			}
		}
		if ka, kb := a[0].Device.Key, b[0].Device.Key; ka == "" || ka == kb {
			t.Errorf("--parallel %d: device keys %q and %q, want two", parallel, ka, kb)
		}
		n := overlapping(a, b)
		t.Logf("--parallel %d: %d overlapping pairs of sampling windows; stderr:\n%s", parallel, n, stderr.String())
		if parallel == 2 && n == 0 {
			t.Errorf("--parallel 2: no sampling window of one device overlaps one of the other")
		}
		if parallel == 0 && (n != 0 || !strings.Contains(stderr.String(), "alone")) {
			t.Errorf("default: %d overlapping windows, want the CPU devices alone, said so", n)
		}
		if parallel == 2 && !strings.Contains(stderr.String(), "benchmark 3 ") {
			t.Errorf("stderr (no terminal) shows no plain progress line per benchmark")
		}
		for _, dev := range order {
			checkCount(t, stderr.String(), dev)
		}
	}
}

// checkCount checks the plain progress lines of device dev: benchmarks
// numbered 1 to N once each, in order, N the total they all give, and rows
// derived from others marked so, not counted.
func checkCount(t *testing.T, stderr, dev string) {
	t.Helper()
	line := regexp.MustCompile(`^` + regexp.QuoteMeta(dev) + `: (?:benchmark (\d+)(?: of (\d+))?|(derived)) (\S+): `)
	want, total := 1, -1
	for _, l := range strings.Split(stderr, "\n") {
		m := line.FindStringSubmatch(l)
		switch {
		case m == nil || m[3] != "":
			continue
		case m[2] == "":
			t.Errorf("device %s: %q has no total", dev, l)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		of, _ := strconv.Atoi(m[2])
		if total < 0 {
			total = of
		}
		if n != want || of != total {
			t.Errorf("device %s: %q, want benchmark %d of %d", dev, l, want, total)
		}
		want = n + 1
	}
	if want-1 != total {
		t.Errorf("device %s: the last benchmark was %d, of %d", dev, want-1, total)
	}
}

// TestSuiteTimeoutOnOneDevice runs suite quick on Oclgrind (a simulator: a
// kernel over megabytes outlasts the timeout) beside PoCL: Oclgrind's worker ends
// with one line, PoCL's benchmarks are all kept, whole.
func TestSuiteTimeoutOnOneDevice(t *testing.T) {
	if !devtest.InChild(t, 10*time.Minute, devtest.Vendors(t, []string{"POCL_DEVICES=pthread"}, "pocl", "oclgrind")...) {
		return
	}
	o := quickOnAll(t, 2)
	// Sizes within 64 MiB: PoCL's kernels take milliseconds, Oclgrind's
	// simulated ones seconds (a 1 MiB read about half a second), so a 2 s
	// timeout parts them even on a loaded machine; within 16 MiB Oclgrind
	// once found every kernel small enough to finish.
	o.Small, o.MaxMemory, o.MaxSize = false, 64<<20, 1<<20
	o.Settings.KernelTimeout = 2 * time.Second
	var stdout, stderr bytes.Buffer
	err := Suite(context.Background(), o, &stdout, &stderr)
	var ds *devicesStopped
	timedOut := err != nil
	switch {
	case err == nil:
		// Oclgrind's probe may settle on working sets small enough that
		// every simulated kernel finishes inside the timeout: then both
		// devices' results must be whole, checked below.
		t.Logf("no kernel outlasted %s on Oclgrind this time", o.Settings.KernelTimeout)
	case !errors.As(err, &ds) || ds.stopped != 1 || !errors.Is(err, measure.ErrKernelTimeout):
		t.Fatalf("error %v, want one of two devices stopped by the kernel timeout\n%s", err, stderr.String())
	}
	f, rerr := results.Read(o.Output)
	if rerr != nil {
		t.Fatal(rerr)
	}
	_, by := byDevice(t, f.Benchmarks)
	var pocl []results.Benchmark
	for _, bs := range by {
		if strings.Contains(bs[0].Device.Platform, "Portable") {
			pocl = bs
		}
	}
	if len(pocl) < 10 {
		t.Fatalf("PoCL kept %d benchmarks, want the whole suite\n%s", len(pocl), stderr.String())
	}
	for _, b := range pocl {
		if b.Error != "" {
			t.Errorf("PoCL's %s: %s", b.Name, b.Error)
		}
	}
	if lines := strings.Count(stderr.String(), "Oclgrind Simulator stopped: "); timedOut && lines != 1 {
		t.Errorf("%d lines say Oclgrind stopped, want 1:\n%s", lines, stderr.String())
	}
}

// TestSuiteInterruptKeepsBothDevices cancels a run on two devices once each
// has finished a benchmark: the error is an interruption and the result
// file keeps both devices' finished benchmarks.
func TestSuiteInterruptKeepsBothDevices(t *testing.T) {
	if !devtest.InChild(t, 10*time.Minute, devtest.PoCLPair(t)...) {
		return
	}
	o := quickOnAll(t, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
			if b, err := os.ReadFile(o.Output); err == nil && strings.Contains(string(b), `"index": "0:0"`) && strings.Contains(string(b), `"index": "0:1"`) {
				cancel()
			}
		}
	}()
	var stdout, stderr bytes.Buffer
	err := Suite(ctx, o, &stdout, &stderr)
	if fail.KindOf(err) != fail.Interrupted {
		t.Fatalf("error %v, want an interruption\n%s", err, stderr.String())
	}
	f, rerr := results.Read(o.Output)
	if rerr != nil {
		t.Fatal(rerr)
	}
	_, by := byDevice(t, f.Benchmarks)
	if len(by["0:0"]) == 0 || len(by["0:1"]) == 0 {
		t.Errorf("kept %d and %d benchmarks, want both devices'", len(by["0:0"]), len(by["0:1"]))
	}
	t.Logf("interrupted: %v; kept %d + %d", err, len(by["0:0"]), len(by["0:1"]))
}
