package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
)

// fillCache builds two small programs into a cache in dir.
func fillCache(t *testing.T, dir string) {
	t.Helper()
	needDevice(t)
	m := runtime.NewManager()
	defer m.Close()
	dev := devtest.Select(t, m)
	c := cache.New(dir, 0)
	for i, text := range []string{
		"__kernel void a(__global float *x) { x[get_global_id(0)] = 1.0f; }\n",
		"__kernel void b(__global float *x) { x[get_global_id(0)] = 2.0f; }\n",
	} {
		p, _, err := c.BuildProgram(dev, runtime.Source{Name: []string{"a.cl", "b.cl"}[i], Text: text}, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Release()
	}
}

func TestCacheCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.DirEnv, dir)

	// An empty cache.
	if code, out, errs := clm(t, "cache", "list", "--format", "json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("list of an empty cache: %d %q %s", code, out, errs)
	}
	if code, out, _ := clm(t, "cache", "verify", "--format", "json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("verify of an empty cache: %d %q", code, out)
	}

	fillCache(t, dir)
	code, out, errs := clm(t, "cache", "stats", "--format", "json")
	var s cache.Stats
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
		t.Fatalf("stats: %d %s %s", code, out, errs)
	}
	if s.Entries != 2 || s.Misses != 2 || s.Dir != dir || s.MaxBytes != cache.DefaultMaxSize {
		t.Errorf("stats = %+v", s)
	}
	if code, out, _ := clm(t, "cache", "stats"); code != 0 || !strings.Contains(out, "hits / misses       0 / 2") {
		t.Errorf("stats table:\n%s", out)
	}
	code, out, _ = clm(t, "cache", "list")
	if code != 0 || !strings.Contains(out, "a.cl") || !strings.Contains(out, "b.cl") || !strings.Contains(out, "\nKEY ") {
		t.Errorf("list:\n%s", out)
	}
	var es []cache.EntryReport
	if _, out, _ := clm(t, "cache", "list", "--format", "json"); json.Unmarshal([]byte(out), &es) != nil || len(es) != 2 || es[0].Device == "" {
		t.Errorf("list json: %s", out)
	}
	if code, out, _ := clm(t, "cache", "verify"); code != 0 || !strings.Contains(out, "2 entries checked, 0 bad") {
		t.Errorf("verify of a good cache: %d\n%s", code, out)
	}

	// One flipped byte: verify reports it, removes it, exits 1.
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.clbin"))
	b, _ := os.ReadFile(files[0])
	b[len(b)-1] ^= 1
	os.WriteFile(files[0], b, 0o644)
	code, out, errs = clm(t, "cache", "verify")
	if code != exitError || !strings.Contains(out, "checksum mismatch") || !strings.Contains(errs, "1 of 2 entries were bad") {
		t.Errorf("verify of a bad entry: %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Error("verify left the bad entry")
	}

	if code, out, _ := clm(t, "cache", "clear"); code != 0 || !strings.HasPrefix(out, "removed 1 entries") {
		t.Errorf("clear: %d %s", code, out)
	}
	if _, out, _ := clm(t, "cache", "stats", "--format", "json"); !strings.Contains(out, `"entries": 0`) || !strings.Contains(out, `"misses": 0`) {
		t.Errorf("stats after clear: %s", out)
	}

	for _, sub := range []string{"stats", "list", "verify", "clear", "bench"} {
		if code, out, _ := clm(t, "cache", sub, "--help"); code != 0 || !strings.Contains(out, "clmeter cache "+sub) {
			t.Errorf("cache %s --help: %d\n%s", sub, code, out)
		}
	}
	if code, _, _ := clm(t, "cache", "list", "--format", "xml"); code != exitUsage {
		t.Errorf("bad --format: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := clm(t, "cache", "stats", "--cache-max-size", "huge"); code != exitUsage {
		t.Errorf("bad --cache-max-size: exit %d, want %d", code, exitUsage)
	}
	// The usage line names the whole command, not its last word.
	if code, _, errs := clm(t, "cache", "stats", "extra"); code != exitUsage || !strings.Contains(errs, "'clmeter cache stats' takes no arguments") {
		t.Errorf("cache stats extra: exit %d, %s", code, errs)
	}
}

// setupCacheApp runs a command that only makes a runner.NewManager, and returns the
// Manager's cache and stderr.
func setupCacheApp(t *testing.T, args ...string) (runtime.ProgramCache, string, error) {
	t.Helper()
	var cache runtime.ProgramCache
	var errb bytes.Buffer
	app := &cli.App{Name: "clmeter", Writer: &bytes.Buffer{}, ErrWriter: &errb, Commands: []*cli.Command{{
		Name: "x", Flags: cacheFlags, Action: func(c *cli.Context) error {
			m, err := runner.NewManager(cacheOptions(c), c.App.ErrWriter)
			if m != nil {
				cache = m.Cache
				m.Close()
			}
			return err
		},
	}}}
	err := app.Run(append([]string{"clmeter", "x"}, args...))
	return cache, errb.String(), err
}

func TestSetupCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.DirEnv, "")
	t.Setenv(cache.OffEnv, "")
	t.Setenv(cache.MaxSizeEnv, "")
	c, _, err := setupCacheApp(t, "--cache-dir", dir, "--cache-max-size", "1GiB")
	if cc, ok := c.(*cache.Cache); err != nil || !ok || cc.Dir != dir || cc.MaxSize != 1<<30 {
		t.Fatalf("setupCache = %#v, %v", c, err)
	}
	if c, _, _ := setupCacheApp(t, "--cache-dir", dir, "--no-cache"); c != nil {
		t.Error("--no-cache left a cache")
	}
	t.Setenv(cache.OffEnv, "1")
	if c, _, _ := setupCacheApp(t, "--cache-dir", dir); c != nil {
		t.Error("CLMETER_NO_CACHE=1 left a cache")
	}
	t.Setenv(cache.OffEnv, "")
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	c, errs, err := setupCacheApp(t, "--cache-dir", filepath.Join(file, "sub"))
	if c != nil || err != nil || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "not writable") {
		t.Errorf("unwritable folder: cache %v, err %v, stderr %q; want no cache and one warning", c, err, errs)
	}
	if _, _, err := setupCacheApp(t, "--cache-dir", dir, "--cache-max-size", "big"); err == nil {
		t.Error("a bad --cache-max-size is not an error")
	}
}

func TestCacheBench(t *testing.T) {
	needDevice(t)
	if testing.Short() {
		t.Skip("starts clmeter processes")
	}
	t.Setenv("CLMETER_TEST_MAIN", "1") // the trial processes are this test binary running main
	cacheDir := t.TempDir()
	t.Setenv(cache.DirEnv, cacheDir) // where the savings are recorded
	out := filepath.Join(t.TempDir(), "bench.json")
	user := filepath.Join(t.TempDir(), "user.cl")
	os.WriteFile(user, []byte("__kernel void f(__global float *x, int n) { if (get_global_id(0) < n) x[get_global_id(0)] *= 2.0f; }\n"), 0o644)
	code, stdout, stderr := clm(t, "cache", "bench", user, "--trials", "1", "-o", out)
	if code != 0 {
		t.Fatalf("cache bench: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, w := range []string{"MODE", "TTFR", "VS COLD", "VS DRIVER", "STORE", "EXIT", "cold", "driver cache", "clmeter cache", "both caches",
		"miss (a first run", "repaid", "verdict on "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("table lacks %q:\n%s", w, stdout)
		}
	}
	if strings.Contains(stdout, "note:") {
		t.Errorf("unexpected note (a mode's cache misbehaved or the launch was skipped):\n%s", stdout)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benchmarks) != 5 || f.Benchmarks[0].Kind != "cache-bench" || !strings.HasSuffix(f.Benchmarks[0].Name, "user.cl/cold") {
		t.Fatalf("result file has %d benchmarks, first %+v", len(f.Benchmarks), f.Benchmarks[0])
	}
	if !f.Benchmarks[2].Program.FromCache || f.Benchmarks[0].Program.FromCache || f.Benchmarks[4].Program.FromCache {
		t.Errorf("from_cache: cold %v, clmeter cache %v, miss %v", f.Benchmarks[0].Program.FromCache, f.Benchmarks[2].Program.FromCache, f.Benchmarks[4].Program.FromCache)
	}
	figs := func(b results.Benchmark) map[string]float64 {
		m := map[string]float64{}
		for _, fg := range b.Figures {
			m[fg.Name] = fg.Value
		}
		return m
	}
	cold, miss := figs(f.Benchmarks[0]), figs(f.Benchmarks[4])
	for _, n := range []string{"time to first result", "enumeration", "context creation", "program build", "first launch", "steady launch",
		"store after the work", "process wall time", "speedup over cold", "speedup over driver cache"} {
		if _, ok := cold[n]; !ok {
			t.Errorf("result lacks figure %q", n)
		}
	}
	sum := cold["enumeration"] + cold["context creation"] + cold["program build"] + cold["first launch"]
	if d := cold["time to first result"] - sum; d > 1e-6*sum || d < -1e-6*sum {
		t.Errorf("cold: TTFR %v ms is not the sum of its parts %v ms (one trial)", cold["time to first result"], sum)
	}
	if miss["store after the work"] <= 0 || cold["store after the work"] != 0 {
		t.Errorf("store after the work: miss %v ms, cold %v ms; want the miss to store and cold not", miss["store after the work"], cold["store after the work"])
	}
	if _, ok := miss["break-even runs"]; !ok {
		t.Error("the miss lacks its break-even runs")
	}
	if v, _ := f.Benchmarks[0].Extra["verdict"].(string); !strings.HasPrefix(v, "verdict on ") {
		t.Errorf("verdict %q", v)
	}
	// The savings are recorded where doctor and cache stats read them.
	// (An explicit size: an earlier test's flag value can linger in the shared flag.)
	if code, out, errs := clm(t, "cache", "stats", "--cache-max-size", "512MiB"); code != 0 || !strings.Contains(out, "what each cache saves on ") || !strings.Contains(out, "user.cl: time to first result cold") {
		t.Errorf("cache stats after cache bench: exit %d\n%s%s", code, out, errs)
	}
	if code, _, _ := clm(t, "cache", "bench", "nosuch", "--trials", "1"); code != exitUsage {
		t.Errorf("unknown program: exit %d, want %d", code, exitUsage)
	}
}
