package cache

import (
	"os"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/runtime"
)

// freshDevice is the first device of a new Manager using c: its context is
// not made yet.
func freshDevice(t *testing.T, c *Cache) *runtime.Device {
	t.Helper()
	m, d := realDevice(t)
	m.Cache = c
	return d
}

// TestPrefetch checks that a lookup started before the context is made is
// what the build takes: a hit with its lookup done ahead, a rejected entry
// still rejected, a lookup of other arguments dropped, and none started once
// the context is made.
func TestPrefetch(t *testing.T) {
	c := New(t.TempDir(), 0)
	c.Force = true
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	const opts = "-cl-fast-relaxed-math"
	d := freshDevice(t, c)
	if info := build(t, c, d, src, opts); info.CacheNote != "miss" || info.Ahead != 0 {
		t.Fatalf("first build: note %q, ahead %v; want a miss not looked up ahead", info.CacheNote, info.Ahead)
	}
	d.PrefetchProgram(src, opts) // the context is made: nothing to do
	if len(c.ahead) != 0 {
		t.Fatalf("a lookup was started after the context was made")
	}

	d = freshDevice(t, c)
	d.PrefetchProgram(src, opts)
	if len(c.ahead) != 1 {
		t.Fatalf("%d lookups started, want 1", len(c.ahead))
	}
	if _, _, err := d.Context(); err != nil {
		t.Fatal(err)
	}
	p, info, err := d.BuildProgram(src, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if !info.FromCache || info.Ahead <= 0 || len(c.ahead) != 0 {
		t.Fatalf("note %q, ahead %v, %d lookups left; want a hit looked up ahead and none left", info.CacheNote, info.Ahead, len(c.ahead))
	}

	// Other options: the build does its own lookup; the other is dropped.
	d = freshDevice(t, c)
	d.PrefetchProgram(src, opts+" -DOTHER")
	if info := build(t, c, d, src, opts); !info.FromCache || info.Ahead != 0 || len(c.ahead) != 0 {
		t.Fatalf("note %q, ahead %v, %d lookups left; want a hit of its own lookup and none left", info.CacheNote, info.Ahead, len(c.ahead))
	}

	// A damaged entry read ahead is rejected as one read on the build's path.
	key := keyOf(t, d, src, opts).Key()
	path := c.entryPath(key)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d = freshDevice(t, c)
	d.PrefetchProgram(src, opts)
	if info := build(t, c, d, src, opts); info.FromCache || !strings.HasPrefix(info.CacheNote, "rejected") {
		t.Fatalf("damaged entry: from cache %v, note %q; want it rejected", info.FromCache, info.CacheNote)
	}
	checkEntryValid(t, path) // rebuilt and stored again
}
