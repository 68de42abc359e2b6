package cache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/runtime"
)

// benchHitSetup stores bench/long.cl (the program of make bench's cache-floor
// row) in a fresh cache and returns the cache, device and source.
func benchHitSetup(b *testing.B) (*Cache, *runtime.Device, runtime.Source, string) {
	b.Helper()
	m := runtime.NewManager()
	b.Cleanup(m.Close)
	d := devtest.Select(b, m)
	path, _ := filepath.Abs("../../bench/long.cl")
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	src := runtime.Source{Name: "bench/long.cl", Text: string(text), Dir: filepath.Dir(path)}
	opts := "-I" + filepath.Dir(path)
	c := New(b.TempDir(), 0)
	c.Force = true
	p, info, err := c.BuildProgram(d, src, opts)
	if err != nil {
		b.Fatal(err)
	}
	p.Release()
	if p, info, err = c.BuildProgram(d, src, opts); err != nil || !info.FromCache {
		b.Fatalf("no hit after the store: %q %v", info.CacheNote, err)
	}
	p.Release()
	return c, d, src, opts
}

// BenchmarkCacheHit builds bench/long.cl from the cache b.N times in one
// process: clmeter's own work (key, read, checks, bookkeeping) plus the
// driver's clCreateProgramWithBinary and clBuildProgram.
func BenchmarkCacheHit(b *testing.B) {
	c, d, src, opts := benchHitSetup(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for range b.N {
		p, info, err := c.BuildProgram(d, src, opts)
		if err != nil || !info.FromCache {
			b.Fatalf("not a hit: %q %v", info.CacheNote, err)
		}
		p.Release()
	}
}

// BenchmarkCacheHitOwn is clmeter's own part of a hit alone: everything
// BenchmarkCacheHit does but the driver's load and build (key, read of the
// entry, its checks, the signature of the loaded kernels is left out too).
func BenchmarkCacheHitOwn(b *testing.B) {
	c, d, src, opts := benchHitSetup(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for range b.N {
		if _, err := c.lookupHit(d, src, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the process's CPU time (user + system, every thread) per
// operation until the returned function runs: on a shared, loaded machine it
// varies far less than the wall time.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCacheHitWritesNothing checks that a hit with deferred stores writes
// nothing before StorePending: the hit count and the use-time refresh of an
// entry unused for a day wait until after the work.
func TestCacheHitWritesNothing(t *testing.T) {
	_, d := realDevice(t)
	c := New(t.TempDir(), 0)
	c.Force = true
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	build(t, c, d, src, "")
	c.Defer = true
	path := c.entryPath(keyOf(t, d, src, "").Key())
	old := time.Now().Add(-24 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	statsPath := filepath.Join(c.Dir, statsFile)
	before, _ := os.ReadFile(statsPath)
	if info := build(t, c, d, src, ""); !info.FromCache {
		t.Fatalf("not a hit: %q", info.CacheNote)
	}
	if st, err := os.Stat(path); err != nil || !st.ModTime().Equal(old) {
		t.Fatalf("the hit touched its entry before StorePending: %v %v", st.ModTime(), err)
	}
	if after, _ := os.ReadFile(statsPath); string(after) != string(before) {
		t.Fatalf("the hit counted before StorePending: %q -> %q", before, after)
	}
	c.StorePending(t.Context())
	if st, err := os.Stat(path); err != nil || !st.ModTime().After(old) {
		t.Fatalf("StorePending did not refresh the entry's use time: %v %v", st.ModTime(), err)
	}
	if s, err := c.Stats(); err != nil || s.Hits != 1 {
		t.Fatalf("stats after StorePending: %+v %v; want 1 hit", s, err)
	}
}

// TestContextStartsDriverIdentity: making a device's context starts the
// driver identity's lookup, so that a hit's first build does not.
func TestContextStartsDriverIdentity(t *testing.T) {
	m, d := realDevice(t)
	c := New(t.TempDir(), 1<<30)
	c.Force = true
	m.Cache = c
	driverIDs.Delete(d.CL.Platform())
	if _, _, err := d.Context(); err != nil {
		t.Fatal(err)
	}
	if _, ok := driverIDs.Load(d.CL.Platform()); !ok {
		t.Fatal("making the context did not start the driver identity's lookup")
	}
	if DriverIdentity(d) == "" {
		t.Error("no driver identity")
	}
}
