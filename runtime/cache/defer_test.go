package cache

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/runtime"

	"github.com/clmeter/clmeter/runtime/cl"
)

// launchOnce runs the program's add1 kernel once over n work-items.
func launchOnce(t *testing.T, d *runtime.Device, p *cl.Program, n int) {
	t.Helper()
	ctx, q, err := d.Context()
	if err != nil {
		t.Fatal(err)
	}
	buf, err := ctx.CreateBuffer(cl.MemReadWrite, int64(4*n), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	k, err := p.CreateKernel("add1")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	if err := k.SetArgs(buf); err != nil {
		t.Fatal(err)
	}
	if err := q.EnqueueNDRangeNoEvent(k, []int{n}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := q.Finish(); err != nil {
		t.Fatal(err)
	}
}

// deferredCache is a new cache with deferred stores, the device's manager's.
func deferredCache(t *testing.T) (*Cache, *runtime.Device) {
	t.Helper()
	m, d := realDevice(t)
	c := New(t.TempDir(), 0)
	c.Defer = true
	m.Cache = c
	return c, d
}

// TestCacheDeferredStore checks that a deferred miss writes nothing until
// StorePending, which then stores an entry that the next build hits, even
// after the program was released.
func TestCacheDeferredStore(t *testing.T) {
	c, d := deferredCache(t)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	p, info, err := d.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	if info.CacheNote != "miss" || c.Pending() != 1 {
		t.Fatalf("first build: note %q, %d pending; want a miss, 1 pending", info.CacheNote, c.Pending())
	}
	// The same program again before the store: the program built above,
	// reused, and still one store pending.
	p2, info2, err := d.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info2.CacheNote, "reused") || !info2.FromCache || c.Pending() != 1 {
		t.Fatalf("second build before the store: note %q, %d pending; want reused, 1 pending", info2.CacheNote, c.Pending())
	}
	launchOnce(t, d, p2, 1<<10)
	p2.Release()
	if es, _ := c.Entries(); len(es) != 0 {
		t.Fatalf("%d entries before StorePending, want none", len(es))
	}
	launchOnce(t, d, p, 1<<12)
	p.Release() // the cache holds its own handle
	r := c.StorePending(context.Background())
	if r.Stored != 1 || r.Failed != 0 || r.Abandoned != 0 || r.Bytes == 0 {
		t.Fatalf("StorePending = %+v, want 1 stored", r)
	}
	es, err := c.Entries()
	if err != nil || len(es) != 1 {
		t.Fatalf("entries %v, %v; want 1", es, err)
	}
	checkEntryValid(t, es[0].Path)
	if info := build(t, c, d, src, ""); info.CacheNote != "hit" {
		t.Fatalf("build after StorePending: %q, want a hit", info.CacheNote)
	}
	if r := c.StorePending(context.Background()); r != (runtime.StoreReport{}) {
		t.Errorf("second StorePending = %+v, want nothing done", r)
	}
}

// TestCacheHitReusedInProcess: a program loaded from the cache is reused by
// a later build of it in the same process until StorePending, then loaded
// again.
func TestCacheHitReusedInProcess(t *testing.T) {
	c, d := deferredCache(t)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	p, _, err := d.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if r := c.StorePending(context.Background()); r.Stored != 1 {
		t.Fatalf("StorePending = %+v, want 1 stored", r)
	}
	notes := []string{}
	for range 3 {
		p, info, err := d.BuildProgram(src, "")
		if err != nil {
			t.Fatal(err)
		}
		if !info.FromCache {
			t.Fatalf("build %d not from the cache: %q", len(notes), info.CacheNote)
		}
		launchOnce(t, d, p, 1<<10)
		p.Release()
		notes = append(notes, info.CacheNote)
	}
	want := []string{"hit", "reused: loaded from the cache earlier in this process", "reused: loaded from the cache earlier in this process"}
	if strings.Join(notes, "|") != strings.Join(want, "|") {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	c.StorePending(context.Background())
	if info := build(t, c, d, src, ""); info.CacheNote != "hit" {
		t.Fatalf("build after StorePending: %q, want a hit (the kept program let go)", info.CacheNote)
	}
}

// TestCacheDeferredStoreAbandoned checks that a done context stores nothing,
// leaves no file behind and releases the programs.
func TestCacheDeferredStoreAbandoned(t *testing.T) {
	m, d := realDevice(t)
	c := New(t.TempDir(), 0)
	c.Defer = true
	m.Cache = c
	for _, text := range []string{cacheTestSrc, cacheTestSrc + "// two\n"} {
		p, _, err := d.BuildProgram(runtime.Source{Name: "add1.cl", Text: text}, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Release()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := m.CloseContext(ctx)
	if r.Stored != 0 || r.Abandoned != 2 {
		t.Fatalf("CloseContext with a done context = %+v, want 2 abandoned", r)
	}
	if c.Pending() != 0 {
		t.Errorf("%d still pending", c.Pending())
	}
	subs, _ := os.ReadDir(c.Dir)
	for _, s := range subs {
		if s.Name() != statsFile {
			t.Errorf("the cache folder holds %s after abandoned stores, want only the counters", s.Name())
		}
	}
}

// TestCachePolicy checks the per-driver defaults and CLMETER_CACHE=1.
func TestCachePolicy(t *testing.T) {
	if p := PolicyFor("pocl", nil); !p.On || p.Stores == "" || p.Why == "" {
		t.Errorf("PoCL policy %+v, want on, with what and why", p)
	}
	if p := PolicyFor("nvidia", nil); p.On {
		t.Errorf("NVIDIA policy %+v, want off while the driver's cache is on", p)
	}
	if p := PolicyFor("nvidia", []string{"CUDA_CACHE_DISABLE=1"}); !p.On {
		t.Errorf("NVIDIA policy with CUDA_CACHE_DISABLE=1: %+v, want on", p)
	}
	if p := PolicyFor("", nil); !p.On {
		t.Errorf("unknown driver policy %+v, want on", p)
	}
	// A device of a family whose policy is off builds from source, unless forced.
	_, d := realDevice(t)
	nv := &runtime.Device{Platform: d.Platform, Info: d.Info, CL: d.CL}
	nv.Platform.Name, nv.Platform.Vendor = "NVIDIA CUDA", "NVIDIA Corporation"
	c := New(t.TempDir(), 0)
	t.Setenv("CUDA_CACHE_DISABLE", "")
	p, info, err := c.BuildProgram(nv, runtime.Source{Name: "add1.cl", Text: cacheTestSrc}, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if info.CacheNote != "off on nvidia" {
		t.Fatalf("policy off: note %q", info.CacheNote)
	}
	c.Force = true
	p, info, err = c.BuildProgram(nv, runtime.Source{Name: "add1.cl", Text: cacheTestSrc}, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if info.CacheNote != "miss" {
		t.Fatalf("forced on: note %q, want a miss", info.CacheNote)
	}
}

// TestCacheDeferredEntryComplete checks, on PoCL, that an entry stored after
// the first launch holds more than the binary read before it: the work-group
// function PoCL compiled for that launch, which a hit then does not compile.
func TestCacheDeferredEntryComplete(t *testing.T) {
	m, d := realDevice(t)
	if DriverFamily(d.Platform.Name, d.Platform.Vendor) != driverPoCL {
		t.Skip("PoCL only: other drivers compile nothing at the first launch")
	}
	// A program PoCL's own cache has not seen (it keys the preprocessed source,
	// so a comment would not do): it would otherwise hand the work-group
	// functions of earlier launches to the binary read before one.
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc + fmt.Sprintf("__constant int clmeter_test_nonce_%d = 1;\n", time.Now().UnixNano())}
	size := func(deferred bool) int64 {
		c := New(t.TempDir(), 0)
		c.Defer = deferred
		m.Cache = c
		p, _, err := d.BuildProgram(src, "")
		if err != nil {
			t.Fatal(err)
		}
		launchOnce(t, d, p, 1<<14)
		p.Release()
		c.StorePending(context.Background())
		es, err := c.Entries()
		if err != nil || len(es) != 1 {
			t.Fatalf("entries %v, %v", es, err)
		}
		return es[0].Size
	}
	before, after := size(false), size(true)
	if after <= before {
		t.Errorf("entry stored after the launch is %d bytes, before it %d: the launch's work-group function is missing", after, before)
	}
}
