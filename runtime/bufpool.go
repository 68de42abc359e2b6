package runtime

import (
	"sync"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Buffer reuse. A suite runs one benchmark after another with buffers of the
// same sizes: the five widths of a bandwidth pattern over one working set,
// a benchmark measured again over a working set it shrank to. Each fresh
// buffer is memory the device backs anew: on a CPU device every page of it is
// a page fault on first touch, which on a VM costs many times the write
// itself (docs/OWNCOST.md has the figures). So while a
// Device reuses buffers (ReuseBuffers), a benchmark's buffers go to a pool at
// Teardown, and the next benchmark takes those of its exact size and flags
// instead of making new ones. A taken buffer is written in full at Setup, as a
// new one is, so the kernel sees the same data; only what the driver spent
// backing fresh memory (the upload's first touch) is not spent again.
//
// Only where buffers are host memory (a CPU device, or host-unified memory):
// that is where backing costs page faults, and a pooled buffer holds nothing
// but its own pages. On a discrete GPU a buffer the benchmark mapped keeps the
// driver's host staging of the map until it is released, so reuse there
// doubles the peak for little time saved (docs/OWNCOST.md has the figures).
// So a GPU's
// buffers are released as before.
//
// The pool holds buffers within the memory budget of one benchmark: before a
// benchmark makes its buffers, the oldest pooled ones are released until the
// pool and the benchmark's own buffers and host copies fit the limit, so a
// suite holds no more than one benchmark's budget (--max-memory bounds both).

// poolKey is what a taken buffer must match: its flags, its allocation (the
// data and any guard zone) and its data bytes; or, for a float4 image, its
// width and height.
type poolKey struct {
	flags        cl.MemFlags
	alloc, bytes int64
	image        [2]int
}

// imageKey is the pool key of a float4 image of width x height texels.
func imageKey(width, height int) poolKey {
	n := int64(width) * int64(height) * 16
	return poolKey{alloc: n, bytes: n, image: [2]int{width, height}}
}

// resident is the memory a buffer of key k holds once written: its data and
// its guard's canary (the rest of a guard zone is never touched).
func (k poolKey) resident() int64 {
	return k.bytes + min(k.alloc-k.bytes, GuardCanaryBytes)
}

type pooledBuffer struct {
	key poolKey
	buf *cl.Buffer
}

// bufPool is one device's pool of released buffers, oldest first.
type bufPool struct {
	mu    sync.Mutex
	on    bool
	limit int64
	ctx   *cl.Context
	free  []pooledBuffer
	bytes int64 // resident bytes of free
}

// ReuseBuffers makes the device keep a benchmark's buffers for the next
// benchmark of the same sizes (on), holding no more than limit bytes of
// buffers and host copies at a time, or stop keeping them (off). A device
// whose buffers are not host memory (HostMemoryBuffers) keeps none. It
// returns the function that releases what the pool holds and restores the
// previous setting: a suite calls it when it ends.
func (d *Device) ReuseBuffers(on bool, limit int64) (restore func()) {
	on = on && d.HostMemoryBuffers()
	p := &d.pool
	p.mu.Lock()
	prevOn, prevLimit := p.on, p.limit
	p.on, p.limit = on, limit
	if !on {
		p.drainLocked()
	}
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.drainLocked()
		p.on, p.limit = prevOn, prevLimit
	}
}

// HostMemoryBuffers reports whether the device's buffers are host memory: a
// CPU device (PoCL) or one with host-unified memory.
func (d *Device) HostMemoryBuffers() bool {
	return d.Info.Type&cl.DeviceTypeCPU != 0 || d.Info.HostUnifiedMemory
}

// PooledBytes is the resident bytes of the buffers the device's pool holds.
func (d *Device) PooledBytes() int64 {
	d.pool.mu.Lock()
	defer d.pool.mu.Unlock()
	return d.pool.bytes
}

// take hands out a pooled buffer for each wanted key it holds (by argument
// index), then releases the oldest of the rest until they and live bytes (the
// benchmark's buffers and host copies) fit the limit. Buffers of another
// context are released. It takes nothing when the pool is off.
func (p *bufPool) take(c *cl.Context, want map[int]poolKey, live int64) map[int]*cl.Buffer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return nil
	}
	if p.ctx != c {
		p.drainLocked()
		p.ctx = c
	}
	var got map[int]*cl.Buffer
	for i, k := range want {
		for j := len(p.free) - 1; j >= 0; j-- { // the newest first
			if p.free[j].key == k {
				if got == nil {
					got = map[int]*cl.Buffer{}
				}
				got[i] = p.free[j].buf
				p.bytes -= k.resident()
				p.free = append(p.free[:j], p.free[j+1:]...)
				break
			}
		}
	}
	p.trimLocked(p.limit - live)
	return got
}

// put keeps buf, of key k in context c, for a later benchmark and reports
// whether it did; the caller releases a buffer it did not keep.
func (p *bufPool) put(c *cl.Context, k poolKey, buf *cl.Buffer) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || c == nil || (p.ctx != nil && p.ctx != c) || k.resident() > p.limit {
		return false
	}
	p.ctx = c
	p.free = append(p.free, pooledBuffer{k, buf})
	p.bytes += k.resident()
	p.trimLocked(p.limit)
	return true
}

// trimLocked releases the oldest pooled buffers until they hold at most
// room bytes.
func (p *bufPool) trimLocked(room int64) {
	n := 0
	for n < len(p.free) && p.bytes > room {
		p.bytes -= p.free[n].key.resident()
		p.free[n].buf.Release()
		n++
	}
	p.free = p.free[n:]
}

func (p *bufPool) drainLocked() {
	p.trimLocked(-1)
	p.free, p.bytes, p.ctx = nil, 0, nil
}

// benchPool is one benchmark's dealings with its device's pool.
type benchPool struct {
	keys  map[int]poolKey    // each buffer's key, by argument: what it was made as
	taken map[int]*cl.Buffer // taken from the pool at Setup, not yet used
	wants map[int]poolKey    // the keys they were taken for
}

// takePooled takes from the device's pool the buffers of the benchmark's
// sizes, and has the pool release what it holds beyond the budget, before the
// benchmark's own memory is taken (Setup).
func (b *KernelBenchmark) takePooled(c *cl.Context) {
	b.bp = benchPool{keys: map[int]poolKey{}}
	if b.bp.wants = b.poolWants(); len(b.bp.wants) > 0 {
		b.bp.taken = b.Device.pool.take(c, b.bp.wants, b.liveBytes(b.bp.wants))
	}
}

// pooled returns the buffer or image taken for argument i, nil when none.
func (b *KernelBenchmark) pooled(i int) *cl.Buffer {
	buf := b.bp.taken[i]
	if buf != nil {
		delete(b.bp.taken, i)
		b.bp.keys[i] = b.bp.wants[i]
	}
	return buf
}

// givePooled hands the benchmark's buffers and images to the device's pool,
// and what it took but did not use (a Setup that failed first); what the pool
// does not keep is released (Teardown).
func (b *KernelBenchmark) givePooled() {
	give := func(k poolKey, buf *cl.Buffer) {
		if !b.Device.pool.put(b.ctx, k, buf) {
			buf.Release()
		}
	}
	for i, buf := range b.bufs {
		if k, ok := b.bp.keys[i]; ok {
			give(k, buf)
		} else {
			buf.Release()
		}
	}
	for i, buf := range b.bp.taken {
		give(b.bp.wants[i], buf)
	}
	for i, img := range b.images {
		give(imageKey(b.Args[i].Width, b.Args[i].Height), img)
	}
	b.bp, b.images = benchPool{}, nil
}

// drain releases every buffer the pool holds.
func (p *bufPool) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drainLocked()
}

// poolWants is the pool key of each buffer argument the benchmark may take
// from its device's pool, by index: none when the buffers are not written
// before timing (NoDataWarmup: a taken buffer would hold the last
// benchmark's data).
func (b *KernelBenchmark) poolWants() map[int]poolKey {
	if b.NoDataWarmup {
		return nil
	}
	want := map[int]poolKey{}
	guarded := b.guarded()
	for i, a := range b.Args {
		if a.Kind == ArgImage2D && a.InitAt != nil { // written in rows: see makeImage
			want[i] = imageKey(a.Width, a.Height)
		}
		if a.Kind != ArgBuffer {
			continue
		}
		k := poolKey{flags: bufferFlags(a), alloc: a.Bytes, bytes: a.Bytes}
		if guarded {
			k.alloc += b.guardSize(a)
		}
		want[i] = k
	}
	return want
}

// liveBytes is what the benchmark holds of its own while it runs: its
// buffers (data and canaries) and the host copies Setup and Validate make.
func (b *KernelBenchmark) liveBytes(want map[int]poolKey) int64 {
	var n int64
	for _, k := range want {
		n += k.resident()
	}
	for _, a := range b.Args {
		switch {
		case a.Kind == ArgImage2D && a.InitAt != nil:
			n += stageBytes // its rows' host piece (the image is in want)
		case a.Kind == ArgImage2D:
			n += 2 * int64(a.Width) * int64(a.Height) * 16 // the image and its texels' host copy
		case a.Kind != ArgBuffer || len(a.Fill) > 0 || b.noHostCopy(a):
		case a.Output:
			n += 2 * a.Bytes // the host copy, and the copy read back
		default:
			n += a.Bytes // the host copy
		}
	}
	if b.lean() {
		n += stageBytes
	}
	return n
}

// bufferFlags is the flags buffer argument a is made with.
func bufferFlags(a Arg) cl.MemFlags {
	if a.Flags == 0 {
		return cl.MemReadWrite
	}
	return a.Flags
}
