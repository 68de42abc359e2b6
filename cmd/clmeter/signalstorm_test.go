package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/testseed"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime/cache"
)

// stormKernels is a user file of four kernels: its store reads a binary that
// compiles each kernel's work-group function (on PoCL, a linker per kernel).
const stormKernels = `__kernel void s0(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] += 1.0f; }
__kernel void s1(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] *= 2.0f; }
__kernel void s2(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] -= 3.0f; }
__kernel void s3(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] = x[i] * x[i]; }
`

// TestSignalStorm sends SIGINT or SIGTERM to the process group of clmeter
// (as Ctrl-C does) at random moments of run, suite, a user file's run on an
// empty driver cache (its build compiles and links) and, after its result is
// printed, its end-of-run store of the binary cache, over 105 trials: every one ends with exit 130 (or 0
// when it finished first), a message without a Go stack dump, a result file
// either absent or whole, a cache of whole entries only, and no store child
// left running. The seed is logged; CLMETER_STORM_TRIALS changes the count.
func TestSignalStorm(t *testing.T) {
	needDevice(t)
	if testing.Short() {
		t.Skip("105 processes")
	}
	trials := 105
	if n, err := fmt.Sscan(os.Getenv("CLMETER_STORM_TRIALS"), &trials); n != 1 || err != nil {
		trials = 105
	}
	seed := testseed.Seed(t)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()
	user := filepath.Join(dir, "storm.cl")
	if err := os.WriteFile(user, []byte(stormKernels), 0o644); err != nil {
		t.Fatal(err)
	}
	quick := []string{"--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x"}
	userRun := func(out string) []string {
		return append([]string{"run", user, "--kernel", "s0", "--global", "N", "--arg", "buf:float:N:rand", "--arg", "int:N", "--size", "1Ki", "--no-profile", "-o", out}, quick...)
	}
	scenarios := []struct {
		name string
		args func(out string) []string
		// freshDriverCache gives the trial an empty PoCL kernel cache, so the
		// build and the store compile (and link) for real.
		freshDriverCache bool
	}{
		{"run", func(out string) []string {
			return append([]string{"run", "saxpy", "--size", "1Ki,4Ki", "--no-profile", "-o", out}, quick...)
		}, false},
		{"suite", func(out string) []string {
			return append([]string{"suite", "quick", "--small", "--no-profile", "--max-time", "50ms", "-o", out}, quick...)
		}, false},
		{"store", userRun, true},
		// The signal comes after the result is printed: in the end-of-run
		// store of the binary cache (or the exit).
		{"end-store", userRun, true},
	}
	// More of the short runs than of the long ones.
	order := []int{0, 1, 2, 3, 0}
	type tally struct {
		interrupted, finished int
		// afterWork counts the signals that came after the result was printed:
		// in the end-of-run store (or the exit).
		afterWork int
		early     int           // killed by the signal before main's handlers existed
		took      time.Duration // the shortest trial that ran to its end
	}
	counts := map[string]*tally{}
	for i := 0; i < trials; i++ {
		sc := scenarios[order[i%len(order)]]
		afterTable := sc.name == "end-store"
		if counts[sc.name] == nil {
			counts[sc.name] = &tally{}
		}
		// The first trial of each scenario runs to its end: its length bounds
		// the random delays of the others, so that signals land all over the
		// process's life, the end-of-run store included.
		calibrate := counts[sc.name].took == 0
		tdir := filepath.Join(dir, fmt.Sprint("t", i))
		cacheDir := filepath.Join(tdir, "cache")
		out := filepath.Join(tdir, "r.json")
		os.MkdirAll(cacheDir, 0o755)
		cmd := child(sc.args(out)...)
		cmd.Env = append(cmd.Env, cache.DirEnv+"="+cacheDir,
			"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0") // under -race, not the default 1 s sleep at exit
		if sc.freshDriverCache {
			cmd.Env = append(cmd.Env, "POCL_CACHE_DIR="+filepath.Join(tdir, "pocl"))
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var stderr strings.Builder
		stdout := &tableWriter{printed: make(chan time.Time, 1)}
		cmd.Stdout, cmd.Stderr = stdout, &stderr
		started := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sig := syscall.SIGINT
		if rng.IntN(2) == 1 {
			sig = syscall.SIGTERM
		}
		delay := time.Hour
		if !calibrate {
			delay = time.Duration(rng.Int64N(int64(counts[sc.name].took * 11 / 10)))
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		timer := time.After(delay)
		var tableAt time.Time
		if afterTable {
			// The delay counts from the result table.
			select {
			case tableAt = <-stdout.printed:
				timer = time.After(delay)
			case <-done:
				done <- nil
			}
		}
		select {
		case <-done:
			// The shortest whole run bounds the delays (the first is the
			// slowest: nothing of its is warm yet).
			from := started
			if afterTable && !tableAt.IsZero() {
				from = tableAt
			}
			if took := time.Since(from); calibrate || took < counts[sc.name].took {
				counts[sc.name].took = took
			}
		case <-timer:
			syscall.Kill(-cmd.Process.Pid, sig)
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
				t.Fatalf("trial %d (%s, %v after %s): still running 60s after the signal:\n%s", i, sc.name, sig, delay, stderr.String())
			}
		}
		code := cmd.ProcessState.ExitCode()
		what := fmt.Sprintf("trial %d (%s, %v after %s)", i, sc.name, sig, delay.Round(time.Millisecond))
		switch code {
		case exitInterrupted:
			counts[sc.name].interrupted++
			if strings.Contains(stdout.String(), "KERNEL") || strings.Contains(stdout.String(), "== ") {
				counts[sc.name].afterWork++
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("%s: exit 130 without saying it was interrupted:\n%s", what, tail(stderr.String(), 600))
			}
		case exitOK:
			counts[sc.name].finished++
		case -1:
			// Killed by the signal before main installed its handlers (the
			// first milliseconds): nothing was started, nothing may be written.
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig || stderr.Len() > 0 {
				t.Errorf("%s: ended by %v, want 130, 0 or killed by %v before start:\n%s", what, cmd.ProcessState, sig, tail(stderr.String(), 1500))
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: killed before start, yet a result file was written", what)
			}
			counts[sc.name].early++
		default:
			t.Errorf("%s: exit %d, want 130 or 0:\n%s", what, code, tail(stderr.String(), 1500))
		}
		for _, w := range []string{"goroutine ", "SIGABRT", "panic:", "SIGSEGV", "fatal error"} {
			if strings.Contains(stderr.String(), w) {
				t.Errorf("%s: %q on stderr:\n%s", what, w, tail(stderr.String(), 1500))
				break
			}
		}
		if _, err := os.Stat(out); err == nil {
			if _, err := results.Read(out); err != nil {
				t.Errorf("%s: the result file is not whole: %v", what, err)
			}
		}
		if tmp, _ := filepath.Glob(filepath.Join(tdir, ".*tmp*")); len(tmp) > 0 {
			t.Errorf("%s: temporary result files left: %v", what, tmp)
		}
		// No store child left behind, and only whole, proven entries.
		c := cache.New(cacheDir, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := c.WaitStores(ctx); err != nil {
			t.Errorf("%s: a store child still holds its lock 10s after the process ended", what)
		}
		cancel()
		es, err := c.Verify()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Err != nil {
				t.Errorf("%s: cache entry %s is bad: %v", what, e.Key[:12], e.Err)
			}
		}
		if t.Failed() {
			t.Fatalf("stopping after %s (seed %d)", what, seed)
		}
		os.RemoveAll(tdir)
	}
	for _, sc := range scenarios {
		if c := counts[sc.name]; c != nil {
			t.Logf("%s (shortest whole run %s): %d interrupted (exit 130; %d of them after the results were printed), %d finished first (exit 0), %d killed before start",
				sc.name, c.took.Round(time.Millisecond), c.interrupted, c.afterWork, c.finished, c.early)
		}
	}
}

// tableWriter keeps a child's stdout and says when a result table began.
type tableWriter struct {
	mu      sync.Mutex
	b       strings.Builder
	printed chan time.Time
	seen    bool
}

func (w *tableWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if !w.seen && strings.Contains(w.b.String(), "KERNEL") {
		w.seen = true
		w.printed <- time.Now()
	}
	return len(p), nil
}

func (w *tableWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
