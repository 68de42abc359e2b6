package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/runtime"

	"github.com/clmeter/clmeter/runtime/cl"
)

// otherSrc is a program with another kernel (mul2, not add1).
const otherSrc = `__kernel void mul2(__global float *x) { x[get_global_id(0)] *= 2.0f; }
`

// runAdd1 launches the program's add1 over 64 floats of 1.0 and checks the
// answer is 2.0 each: a wrong binary must not change it.
func runAdd1(t *testing.T, d *runtime.Device, p *cl.Program) {
	t.Helper()
	ctx, q, err := d.Context()
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	in := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		copy(in[4*i:], []byte{0, 0, 0x80, 0x3f}) // 1.0f
	}
	buf, err := ctx.CreateBuffer(cl.MemReadWrite|cl.MemCopyHostPtr, int64(len(in)), in)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	k, err := p.CreateKernel("add1")
	if err != nil {
		t.Fatalf("the program has no add1: %v", err)
	}
	defer k.Release()
	if err := k.SetArgs(buf); err != nil {
		t.Fatal(err)
	}
	if err := q.EnqueueNDRangeNoEvent(k, []int{n}, nil, nil); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(in))
	if _, err := q.EnqueueReadBuffer(buf, true, 0, out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if !bytes.Equal(out[4*i:4*i+4], []byte{0, 0, 0, 0x40}) { // 2.0f
			t.Fatalf("add1 gave % x at %d, want 2.0", out[4*i:4*i+4], i)
		}
	}
}

// sha is the hex SHA-256 of b.
func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestCacheWrongPayloadNeverTrusted plants entries whose checksum matches a
// wrong payload (a writer bug; a driver whose binary format changed): each is
// rejected before or right after loading, rebuilt, and the answer is right;
// Verify (without a device) or VerifyOn (with one) reports what a build rejects.
func TestCacheWrongPayloadNeverTrusted(t *testing.T) {
	m, d := realDevice(t)
	devs, _ := m.Devices()
	c := New(t.TempDir(), 0)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	other := runtime.Source{Name: "mul2.cl", Text: otherSrc}
	build(t, c, d, src, "")
	build(t, c, d, other, "")
	path := c.entryPath(keyOf(t, d, src, "").Key())
	h0, p0 := splitEntry(t, path)
	_, po := splitEntry(t, c.entryPath(keyOf(t, d, other, "").Key()))
	if len(h0.Kernels) != 1 || h0.Kernels[0].Name != "add1" || len(h0.Kernels[0].Args) != 1 || h0.Driver == "" || h0.Proof == "" {
		t.Fatalf("a stored entry's kernels, driver and proof: %+v", h0)
	}
	t.Logf("kernels %+v, driver %q", h0.Kernels, h0.Driver)

	// withPayload is the entry of src holding payload, its checksum recomputed.
	withPayload := func(h EntryHeader, payload []byte) EntryHeader {
		h.PayloadBytes, h.PayloadSHA256 = int64(len(payload)), sha(payload)
		return h
	}
	// signed also recomputes the proof (a writer bug that signs what it writes).
	signed := func(h EntryHeader) EntryHeader {
		h.Proof = entryProof(h.Key, h.PayloadSHA256, h.Driver, h.Kernels)
		return h
	}
	garbage := bytes.Repeat([]byte("\x7fELF not a binary for this driver "), 200)
	cases := []struct {
		name   string
		entry  func() []byte
		want   string
		static bool // Verify without a device sees it too
	}{
		{"other program's payload, checksum recomputed", func() []byte {
			return joinEntry(withPayload(h0, po), po)
		}, "not proven: payload or kernels do not match", true},
		{"garbage payload, checksum recomputed", func() []byte {
			return joinEntry(withPayload(h0, garbage), garbage)
		}, "not proven: payload or kernels do not match", true},
		{"no proof", func() []byte {
			h := h0
			h.Proof = ""
			return joinEntry(h, p0)
		}, "not proven (no proof)", true},
		{"proven on another driver library", func() []byte {
			h := h0
			h.Driver = "/usr/lib/libpocl.so.2 1 2 3"
			return joinEntry(signed(h), p0)
		}, "not proven on this driver library", false},
		{"other program's payload, signed", func() []byte {
			return joinEntry(signed(withPayload(h0, po)), po)
		}, `loaded binary does not match its source: kernels mul2, want add1`, false},
		{"argument signature changed, signed", func() []byte {
			h := h0
			h.Kernels = []KernelSig{{Name: "add1", Args: []string{"global int* x"}}}
			return joinEntry(signed(h), p0)
		}, `loaded binary does not match its source: kernel add1 argument 0`, false},
		{"argument count changed, signed", func() []byte {
			h := h0
			h.Kernels = []KernelSig{{Name: "add1", Args: []string{"", ""}}}
			return joinEntry(signed(h), p0)
		}, `loaded binary does not match its source: kernel add1 has 1 arguments, want 2`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.name, "argument signature") && h0.Kernels[0].Args[0] == "" {
				t.Skip("this driver gives no argument information: arguments are compared by count")
			}
			// A build rejects it, rebuilds from source, stores a good entry and
			// computes the right answer.
			if err := os.WriteFile(path, tc.entry(), 0o644); err != nil {
				t.Fatal(err)
			}
			p, info, err := c.BuildProgram(d, src, "")
			if err != nil {
				t.Fatal(err)
			}
			if info.FromCache || !strings.HasPrefix(info.CacheNote, "rejected: "+tc.want) {
				t.Fatalf("from cache %v, note %q; want a rebuild with note %q", info.FromCache, info.CacheNote, "rejected: "+tc.want)
			}
			runAdd1(t, d, p)
			p.Release()
			if info := build(t, c, d, src, ""); !info.FromCache {
				t.Fatalf("the rebuilt entry did not hit: %q", info.CacheNote)
			}

			// Verify reports it as a build would.
			for _, withDevice := range []bool{false, true} {
				if err := os.WriteFile(path, tc.entry(), 0o644); err != nil {
					t.Fatal(err)
				}
				var es []Entry
				if withDevice {
					es, err = c.VerifyOn(devs)
				} else {
					es, err = c.Verify()
				}
				var got error
				for _, e := range es {
					if e.Path == path {
						got = e.Err
					}
				}
				if withDevice || tc.static {
					if err != nil || got == nil || !strings.HasPrefix(got.Error(), tc.want) {
						t.Fatalf("verify (device %v) = %v, %v; want %q", withDevice, got, err, tc.want)
					}
					if _, err := os.Stat(path); !os.IsNotExist(err) {
						t.Fatal("verify left the bad entry")
					}
				} else if got != nil {
					t.Fatalf("verify without a device rejected %v", got)
				}
			}
			if err := os.WriteFile(path, joinEntry(h0, p0), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
	if es, err := c.VerifyOn(devs); err != nil || len(es) != 2 || es[0].Err != nil || es[1].Err != nil {
		t.Fatalf("VerifyOn of good entries: %+v %v", es, err)
	}
}

// storeChildEnv makes TestCacheStoreChildBody the store child (RunStoreJobs).
const storeChildEnv = "CLMETER_TEST_STORE_CHILD"

// TestCacheStoreChildBody is the store child of TestCacheDetachedStore.
func TestCacheStoreChildBody(t *testing.T) {
	if os.Getenv(storeChildEnv) != "1" {
		t.Skip("the store child of TestCacheDetachedStore only")
	}
	if err := RunStoreJobs(context.Background(), os.Getenv(DirEnv), flag.Args()); err != nil {
		t.Fatal(err)
	}
}

// TestCacheDetachedStore hands a miss's store to a detached child: the
// StorePending returns without the entry, WaitStores waits for the child, and
// the entry it made is whole, proven and hit; a second hand-off of the same
// key while the first child works is left to it.
func TestCacheDetachedStore(t *testing.T) {
	m, d := realDevice(t)
	t.Setenv(storeChildEnv, "1")
	t.Setenv(StoreWaitEnv, "")
	c := New(t.TempDir(), 0)
	c.Defer = true
	c.StoreCommand = []string{os.Args[0], "-test.run=^TestCacheStoreChildBody$", "-test.count=1", "--"}
	m.Cache = c
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	p, info, err := d.BuildProgram(src, "")
	if err != nil || info.CacheNote != "miss" {
		t.Fatalf("first build: %q %v", info.CacheNote, err)
	}
	runAdd1(t, d, p)
	p.Release()
	key := keyOf(t, d, src, "").Key()

	// Hold the job's lock as a running child would: the hand-off skips it.
	lock, err := c.lockJob(key, false)
	if err != nil || lock == nil {
		t.Fatalf("lock: %v", err)
	}
	r := c.StorePending(context.Background())
	if r.Detached != 0 || r.Stored != 0 {
		t.Fatalf("StorePending with the job locked = %+v, want nothing handed off", r)
	}
	lock.Close()

	p, _, err = d.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	start := time.Now()
	r = c.StorePending(context.Background())
	if r.Detached != 1 || r.Stored != 0 {
		t.Fatalf("StorePending = %+v, want 1 handed to the child", r)
	}
	t.Logf("hand-off took %s", time.Since(start))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.WaitStores(ctx); err != nil {
		t.Fatal(err)
	}
	h, _ := splitEntry(t, c.entryPath(key))
	if err := checkProof(h, d); err != nil {
		t.Fatalf("the child's entry: %v", err)
	}
	for _, ext := range []string{".json", ".lock"} {
		if _, err := os.Stat(c.jobPath(key, ext)); !os.IsNotExist(err) {
			t.Errorf("job file %s left: %v", ext, err)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(c.Dir, "*", ".tmp-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	c2 := New(c.Dir, 0)
	p, info, err = c2.BuildProgram(d, src, "")
	if err != nil || !info.FromCache {
		t.Fatalf("after the child: %q %v, want a hit", info.CacheNote, err)
	}
	runAdd1(t, d, p)
	p.Release()
}
