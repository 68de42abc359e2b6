package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/runtime"

	"github.com/clmeter/clmeter/runtime/cl"
)

const cacheTestSrc = `__kernel void add1(__global float *x) { x[get_global_id(0)] += 1.0f; }
`

// realDevice returns the first OpenCL device, skipping when there is none.
func realDevice(t *testing.T) (*runtime.Manager, *runtime.Device) {
	t.Helper()
	m := runtime.NewManager()
	t.Cleanup(m.Close)
	return m, devtest.Select(t, m)
}

// build builds through c and checks that the program has its kernel.
func build(t *testing.T, c *Cache, d *runtime.Device, src runtime.Source, opts string) runtime.BuildInfo {
	t.Helper()
	p, info, err := c.BuildProgram(d, src, opts)
	if err != nil {
		t.Fatalf("build %s: %v", src.Name, err)
	}
	defer p.Release()
	names, err := p.KernelNames()
	if err != nil || len(names) == 0 {
		t.Fatalf("built program has no kernels: %v %v", names, err)
	}
	k, err := p.CreateKernel(names[0])
	if err != nil {
		t.Fatalf("create kernel from %s program: %v", info.CacheNote, err)
	}
	k.Release()
	return info
}

func checkEntryValid(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("entry: %v", err)
	}
	if _, _, err := decodeEntry(b); err != nil {
		t.Fatalf("entry %s is not valid: %v", path, err)
	}
}

func TestCacheHitAfterMiss(t *testing.T) {
	m, d := realDevice(t)
	var dbg bytes.Buffer
	c := New(t.TempDir(), 0)
	c.Debug = &dbg
	m.Cache = c
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	if info := build(t, c, d, src, "-cl-fast-relaxed-math"); info.FromCache || info.CacheNote != "miss" {
		t.Fatalf("first build: from cache %v, note %q; want a miss", info.FromCache, info.CacheNote)
	}
	p, info, err := d.BuildProgram(src, "-cl-fast-relaxed-math") // through Manager.Cache
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if !info.FromCache || info.CacheNote != "hit" {
		t.Fatalf("second build: from cache %v, note %q; want a hit", info.FromCache, info.CacheNote)
	}
	if info := build(t, c, d, src, ""); info.FromCache {
		t.Fatal("other options hit the same entry")
	}
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Hits != 1 || s.Misses != 2 || s.Entries != 2 || s.Bytes == 0 {
		t.Fatalf("stats = %+v, want 1 hit, 2 misses, 2 entries", s)
	}
	for _, w := range []string{"clmeter cache: miss ", "clmeter cache: store ", "clmeter cache: hit "} {
		if !strings.Contains(dbg.String(), w) {
			t.Errorf("debug output lacks %q:\n%s", w, dbg.String())
		}
	}
	es, err := c.Entries()
	if err != nil || len(es) != 2 || es[0].Header == nil || es[0].Header.Source != "add1.cl" || es[0].Header.Device != d.Info.Name {
		t.Fatalf("entries = %+v, %v", es, err)
	}
	if filepath.Base(filepath.Dir(es[0].Path)) != es[0].Key[:2] {
		t.Errorf("entry %s is not fanned out by key prefix", es[0].Path)
	}
}

func TestCacheKeyFields(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	os.MkdirAll(inc, 0o755)
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "a.h"), "#include \"b.h\"\n#define A 1\n")
	write(filepath.Join(dir, "b.h"), "#define B 2\n")
	write(filepath.Join(inc, "c.h"), "#define C 3\n")
	text := "#include \"a.h\"\n  # include <c.h>\n#include \"missing.h\"\nkernel void k(global int *x) { x[0] = A + B + C; }\n"
	src := runtime.Source{Name: "k.cl", Text: text, Dir: dir}
	opts := "-I " + inc

	t.Setenv("POCL_DEVICES", "")
	os.Unsetenv("POCL_DEVICES")
	dev := func() *runtime.Device {
		return &runtime.Device{
			Platform: cl.PlatformInfo{Name: "Portable Computing Language", Vendor: "The pocl project", Version: "OpenCL 3.0 PoCL 5.0"},
			Info:     cl.DeviceInfo{Name: "cpu-x", Vendor: "AuthenticAMD", Version: "OpenCL 3.0", DriverVersion: "5.0", AddressBits: 64},
		}
	}
	base := keyOf(t, dev(), src, opts)
	if len(base.Includes) != 3 {
		t.Fatalf("includes = %q, want a.h, b.h and c.h", base.Includes)
	}
	baseKey := base.Key()
	if k := keyOf(t, dev(), runtime.Source{Name: "other name", Text: text, Dir: dir}, opts).Key(); k != baseKey {
		t.Error("the source's name changed the key")
	}
	cases := []struct {
		name   string
		change func(d *runtime.Device, s *runtime.Source, o *string)
	}{
		{"source", func(d *runtime.Device, s *runtime.Source, o *string) { s.Text += " " }},
		{"options", func(d *runtime.Device, s *runtime.Source, o *string) { *o += " -cl-mad-enable" }},
		{"platform name", func(d *runtime.Device, s *runtime.Source, o *string) { d.Platform.Name += "x" }},
		{"platform vendor", func(d *runtime.Device, s *runtime.Source, o *string) { d.Platform.Vendor += "x" }},
		{"platform version", func(d *runtime.Device, s *runtime.Source, o *string) { d.Platform.Version += "x" }},
		{"device name", func(d *runtime.Device, s *runtime.Source, o *string) { d.Info.Name += "x" }},
		{"device vendor", func(d *runtime.Device, s *runtime.Source, o *string) { d.Info.Vendor += "x" }},
		{"device version", func(d *runtime.Device, s *runtime.Source, o *string) { d.Info.Version += "x" }},
		{"driver version", func(d *runtime.Device, s *runtime.Source, o *string) { d.Info.DriverVersion += "x" }},
		{"address bits", func(d *runtime.Device, s *runtime.Source, o *string) { d.Info.AddressBits = 32 }},
		{"env POCL_DEVICES", func(d *runtime.Device, s *runtime.Source, o *string) { t.Setenv("POCL_DEVICES", "basic") }},
		{"env POCL_CPU_VARIANT", func(d *runtime.Device, s *runtime.Source, o *string) { t.Setenv("POCL_CPU_VARIANT", "haswell") }},
		{"nested include content", func(d *runtime.Device, s *runtime.Source, o *string) {
			write(filepath.Join(dir, "b.h"), "#define B 3\n")
		}},
		{"-I include content", func(d *runtime.Device, s *runtime.Source, o *string) {
			write(filepath.Join(inc, "c.h"), "#define C 4\n")
		}},
		{"missing include appears", func(d *runtime.Device, s *runtime.Source, o *string) { write(filepath.Join(dir, "missing.h"), "\n") }},
	}
	seen := map[string]string{baseKey: "base"}
	for _, tc := range cases {
		d, s, o := dev(), src, opts
		tc.change(d, &s, &o)
		k := keyOf(t, d, s, o).Key()
		if prev, dup := seen[k]; dup {
			t.Errorf("changing %s gives the key of %s", tc.name, prev)
		}
		seen[k] = tc.name
	}
	f := base
	f.Format++
	if f.Key() == baseKey {
		t.Error("the format version does not change the key")
	}
	// Variables that do not change PoCL's code, or that belong to other drivers, do not.
	t.Setenv("CUDA_CACHE_PATH", "/x")
	t.Setenv("POCL_DEBUG", "1")
	env := CodegenEnv("NVIDIA CUDA", "NVIDIA Corporation", []string{"POCL_DEVICES=x", "CUDA_CACHE_PATH=/x"})
	if len(env) != 0 {
		t.Errorf("NVIDIA codegen env = %q, want none", env)
	}
}

// corrupt rewrites an entry file.
func corrupt(t *testing.T, path string, f func(b []byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCacheCorruptEntriesAreRebuilt(t *testing.T) {
	_, d := realDevice(t)
	c := New(t.TempDir(), 0)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	build(t, c, d, src, "")
	kf := keyOf(t, d, src, "")
	path := c.entryPath(kf.Key())
	checkEntryValid(t, path)
	cases := []struct {
		name, note string
		f          func(b []byte) []byte
	}{
		{"truncated", "rejected: truncated", func(b []byte) []byte { return b[:len(b)-7] }},
		{"byte flipped", "rejected: checksum mismatch", func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b }},
		{"wrong magic", "rejected: bad magic", func(b []byte) []byte { b[0] = 'X'; return b }},
		{"other device's binary", "rejected: not proven", func([]byte) []byte {
			garbage := bytes.Repeat([]byte("not a binary for this device "), 64)
			return encodeEntry(EntryHeader{KeyFields: kf, Key: kf.Key(), Source: "add1.cl"}, garbage)
		}},
		{"empty file", "rejected: bad magic", func([]byte) []byte { return nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			corrupt(t, path, tc.f)
			info := build(t, c, d, src, "")
			if info.FromCache || !strings.HasPrefix(info.CacheNote, tc.note) {
				t.Fatalf("from cache %v, note %q; want a rebuild with note %q", info.FromCache, info.CacheNote, tc.note)
			}
			checkEntryValid(t, path)
			if info := build(t, c, d, src, ""); !info.FromCache {
				t.Fatalf("rewritten entry did not hit: %q", info.CacheNote)
			}
		})
	}
	es, err := c.Verify()
	if err != nil || len(es) != 1 || es[0].Err != nil {
		t.Fatalf("verify after rebuilds: %+v %v", es, err)
	}
	corrupt(t, path, func(b []byte) []byte { return b[:len(b)/2] })
	es, _ = c.Verify()
	if len(es) != 1 || es[0].Err == nil {
		t.Fatalf("verify missed a truncated entry: %+v", es)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("verify left a bad entry in place")
	}
}

// TestCacheChildProcess is the body of one of TestCacheConcurrentProcesses's
// children; it does nothing when run by itself.
func TestCacheChildProcess(t *testing.T) {
	dir := os.Getenv("CLMETER_CACHE_TEST_CHILD_DIR")
	if dir == "" {
		t.Skip("child of TestCacheConcurrentProcesses only")
	}
	n, _ := strconv.Atoi(os.Getenv("CLMETER_CACHE_TEST_CHILD"))
	_, d := realDevice(t)
	c := New(dir, 0)
	for _, text := range []string{cacheTestSrc, fmt.Sprintf("__kernel void k%d(__global int *x) { x[get_global_id(0)] *= %d; }\n", n%3, n%3+2)} {
		build(t, c, d, runtime.Source{Name: "child", Text: text}, "")
	}
}

func TestCacheConcurrentProcesses(t *testing.T) {
	realDevice(t)
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	dir := t.TempDir()
	const children = 8
	cmds := make([]*exec.Cmd, children)
	outs := make([]bytes.Buffer, children)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCacheChildProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CLMETER_CACHE_TEST_CHILD_DIR="+dir, "CLMETER_CACHE_TEST_CHILD="+strconv.Itoa(i))
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outs[i].String())
		}
	}
	c := New(dir, 0)
	es, err := c.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 4 {
		t.Errorf("%d entries, want 4 (one shared program, three per-child ones)", len(es))
	}
	for _, e := range es {
		if e.Err != nil {
			t.Errorf("entry %s is bad: %v", e.Key, e.Err)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(tmps) > 0 {
		t.Errorf("temporary files left: %q", tmps)
	}
	s, _ := c.Stats()
	if s.Hits+s.Misses != 2*children {
		t.Logf("recorded %d hits + %d misses of %d builds (a lost count is allowed)", s.Hits, s.Misses, 2*children)
	}
	if s.Misses < 4 {
		t.Errorf("stats = %+v, want at least 4 misses", s)
	}
}

func TestCacheEvictionKeepsBound(t *testing.T) {
	dir := t.TempDir()
	const bound = 10 << 10
	c := New(dir, bound)
	clock := time.Now().Add(-48 * time.Hour)
	c.now = func() time.Time { return clock }
	var keys []string
	for i := 0; i < 12; i++ {
		clock = clock.Add(time.Minute)
		kf := KeyFields{Format: FormatVersion, SourceSHA256: fmt.Sprint(i), Includes: []string{}, Env: []string{}}
		keys = append(keys, kf.Key())
		c.store(kf.Key(), kf, fmt.Sprint("p", i), bytes.Repeat([]byte{byte(i)}, 3000), nil, "", "")
		s, err := c.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if s.Bytes > bound {
			t.Fatalf("after store %d: %d bytes over the %d bound", i, s.Bytes, bound)
		}
	}
	// The newest entries remain, the oldest went.
	if _, err := os.Stat(c.entryPath(keys[11])); err != nil {
		t.Error("the newest entry was evicted")
	}
	if _, err := os.Stat(c.entryPath(keys[0])); !os.IsNotExist(err) {
		t.Error("the oldest entry was kept")
	}
	s, _ := c.Stats()
	if s.Evictions == 0 {
		t.Errorf("no eviction recorded: %+v", s)
	}

	// A hit refreshes the use time only when it is an hour old.
	p := c.entryPath(keys[11])
	old := clock.Add(-30 * time.Minute)
	os.Chtimes(p, old, old)
	c.touch(p)
	if st, _ := os.Stat(p); !st.ModTime().Equal(old) {
		t.Error("a use 30 minutes after the last refreshed the use time")
	}
	old = clock.Add(-2 * time.Hour)
	os.Chtimes(p, old, old)
	c.touch(p)
	if st, _ := os.Stat(p); st.ModTime().Equal(old) {
		t.Error("a use 2 hours after the last did not refresh the use time")
	}
	n, b, err := c.Clear()
	if err != nil || n == 0 || b == 0 || len(mustEntries(t, c)) != 0 {
		t.Fatalf("clear: %d, %d, %v", n, b, err)
	}
	if s, _ := c.Stats(); s.Entries != 0 || s.Hits+s.Misses+s.Evictions != 0 {
		t.Fatalf("after clear: %+v", s)
	}
}

func mustEntries(t *testing.T, c *Cache) []Entry {
	t.Helper()
	es, err := c.Entries()
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestCacheUnwritableFolder(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file-not-dir")
	os.WriteFile(file, []byte("x"), 0o644)
	bad := filepath.Join(file, "sub")
	c, warn, err := Open(Config{Dir: bad})
	if err != nil || c != nil || !strings.Contains(warn, "not writable") {
		t.Fatalf("Open on an unwritable folder = %v, %q, %v; want nil, a warning, nil", c, warn, err)
	}

	_, d := realDevice(t)
	var w bytes.Buffer
	c = New(bad, 0)
	c.Warn = &w
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	for i := 0; i < 2; i++ {
		if info := build(t, c, d, src, ""); info.FromCache {
			t.Fatal("hit in an unwritable cache")
		}
	}
	if n := strings.Count(w.String(), "\n"); n != 1 || !strings.HasPrefix(w.String(), "clmeter cache: ") {
		t.Fatalf("warnings = %q, want one line", w.String())
	}
}

func TestCacheOffSwitchesAndSizes(t *testing.T) {
	dir := t.TempDir()
	c, warn, err := Open(Config{Dir: dir})
	if err != nil || c == nil || warn != "" || c.Dir != dir || c.MaxSize != DefaultMaxSize || c.Debug != nil || c.Force || !c.Defer {
		t.Fatalf("default cache = %+v, %q, %v", c, warn, err)
	}
	if c, _, _ := Open(Config{Dir: dir, Off: true}); c != nil {
		t.Error("--no-cache left the cache on")
	}
	var w bytes.Buffer
	if c, _, _ := Open(Config{Dir: dir, MaxSize: "1GiB", Debug: true, Force: true, Stderr: &w}); c == nil || c.MaxSize != 1<<30 || c.Debug != &w || c.Warn != &w || !c.Force {
		t.Errorf("MaxSize, Debug, Force not taken: %+v", c)
	}
	if c, _, _ := Open(Config{Dir: dir, MaxSize: "100Mi"}); c == nil || c.MaxSize != 100<<20 {
		t.Errorf("100Mi: %+v", c)
	}
	if _, _, err := Open(Config{Dir: dir, MaxSize: "lots"}); err == nil {
		t.Error("a bad size was accepted")
	}

}
