package cache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// storeNotice is how long a deferred store runs before it says so on stderr.
const storeNotice = time.Second

// pendingStore is a miss whose binary is read and stored after the work.
type pendingStore struct {
	key     string
	kf      KeyFields
	src     runtime.Source
	options string
	prog    *cl.Program     // a retained handle, released once stored
	device  *runtime.Device // the program's device (and context)
}

// deferStore keeps a second handle on p, to be read and stored by StorePending.
// A key already pending is not kept twice.
func (c *Cache) deferStore(key string, kf KeyFields, src runtime.Source, options string, p *cl.Program, d *runtime.Device) error {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	for _, ps := range c.pending {
		if ps.key == key {
			return nil
		}
	}
	h, err := p.Retain()
	if err != nil {
		return err
	}
	c.pending = append(c.pending, pendingStore{key: key, kf: kf, src: src, options: options, prog: h, device: d})
	c.debugf("store %s deferred until the work is done", key[:12])
	return nil
}

// loadedProgram is a program a hit loaded, kept (a retained handle) until
// StorePending so that a later build of it in this process is free.
type loadedProgram struct {
	key    string
	device *runtime.Device
	prog   *cl.Program
}

// keepLoaded keeps a second handle on p, loaded from the cache for key on d,
// until StorePending. A key already kept is not kept twice.
func (c *Cache) keepLoaded(key string, d *runtime.Device, p *cl.Program) {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	for _, l := range c.loaded {
		if l.key == key && l.device == d {
			return
		}
	}
	if h, err := p.Retain(); err == nil {
		c.loaded = append(c.loaded, loadedProgram{key: key, device: d, prog: h})
	}
}

// reusePending returns another handle on the program built (not stored yet)
// or loaded from the cache for key on d earlier in this process, or nil: a
// later build of the same program needs neither the compiler nor the disk
// (a run of saxpy built one program seven times).
func (c *Cache) reusePending(key string, d *runtime.Device) (p *cl.Program, loaded bool) {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	for _, ps := range c.pending {
		if ps.key == key && ps.device == d {
			if h, err := ps.prog.Retain(); err == nil {
				return h, false
			}
		}
	}
	for _, l := range c.loaded {
		if l.key == key && l.device == d {
			if h, err := l.prog.Retain(); err == nil {
				return h, true
			}
		}
	}
	return nil, false
}

// releaseLoaded lets go of the programs kept by keepLoaded.
func (c *Cache) releaseLoaded() {
	c.pmu.Lock()
	ls := c.loaded
	c.loaded = nil
	c.pmu.Unlock()
	for _, l := range ls {
		l.prog.Release()
	}
}

// Pending is the number of misses whose stores StorePending has yet to do.
func (c *Cache) Pending() int {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	return len(c.pending)
}

// StorePending does the bookkeeping of the hits since the last call (use
// times, counts) and reads and stores the binaries of the programs that missed
// since then (see Defer), after the work, while the programs are still
// alive; with StoreCommand set it hands them to a detached store child
// instead and returns at once (see child.go). It returns when every entry is written, or as soon as ctx is done (an
// interrupt at exit): the store then under way is abandoned. It is either
// finished later, or cut off by the process's exit; an entry is written to a
// temporary file and renamed into place, so the cache only ever holds whole
// entries. Programs not yet read when ctx ends are released unread.
func (c *Cache) StorePending(ctx context.Context) runtime.StoreReport {
	c.recordHits(c.takeHits())
	c.releaseLoaded()
	c.pmu.Lock()
	ps := c.pending
	c.pending = nil
	c.pmu.Unlock()
	start := time.Now()
	var r runtime.StoreReport
	if len(ps) == 0 {
		return r
	}
	if len(c.StoreCommand) > 0 {
		return c.detach(ctx, ps)
	}
	var mu sync.Mutex // guards r's counts while the goroutine runs
	var finished atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range ps {
			n, err := c.storeOne(ctx, p)
			mu.Lock()
			switch {
			case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			case err != nil:
				r.Failed++
			default:
				r.Stored++
				r.Bytes += n
			}
			mu.Unlock()
			finished.Add(1)
		}
	}()
	// A long store says why the process has not exited yet, and how to skip it.
	noticed := make(chan struct{})
	slow := time.AfterFunc(storeNotice, func() {
		defer close(noticed)
		w := c.Warn
		if w == nil {
			w = os.Stderr
		}
		fmt.Fprintf(w, "clmeter cache: storing %d program binary(ies) for the next runs (the driver compiles what its binary needs; on PoCL every kernel's work-group function); Ctrl-C skips it\n", len(ps))
	})
	select {
	case <-done:
	case <-ctx.Done():
	}
	if !slow.Stop() {
		<-noticed // the notice is being written: nothing writes after this returns
	}
	mu.Lock()
	defer mu.Unlock()
	out := r
	out.Abandoned = len(ps) - out.Stored - out.Failed
	out.Took = time.Since(start)
	if out.Abandoned > 0 {
		c.debugf("%d deferred store(s) abandoned: %v", out.Abandoned, ctx.Err())
	}
	return out
}

// storeOne reads a pending program's binary, proves and stores it, unless ctx is done.
func (c *Cache) storeOne(ctx context.Context, p pendingStore) (int64, error) {
	defer p.prog.Release()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	t := time.Now()
	n, err := c.proveAndStore(p.key, p.kf, p.src.Name, p.options, p.prog, p.device)
	if err != nil {
		c.debugf("not stored %s: %v", p.key[:12], err)
		return 0, err
	}
	c.debugf("stored %s after the work in %s", p.key[:12], time.Since(t).Round(time.Microsecond))
	return n, nil
}
