package cache

import (
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// lookup is a hit's own work before the driver loads the binary: the key,
// the read of the entry and its checks. BuildProgram does it on the build's
// path, or takes it from Prefetch, done while the device's context was made.
type lookup struct {
	kf  KeyFields
	key string
	// keyErr is why the key could not be made (a bad include); the build
	// fails with it.
	keyErr error
	// read is set once the entry was read (readErr: fs.ErrNotExist for a
	// miss) and, when it was, checked (checkErr: why it is rejected).
	read     bool
	e        entryFile
	readErr  error
	ce       checkedEntry
	checkErr error
	// ahead is how long the lookup took when Prefetch did it; zero otherwise.
	ahead time.Duration
}

// keyFor starts a lookup: the key of src built with options on d.
func keyFor(d *runtime.Device, src runtime.Source, options string) *lookup {
	l := &lookup{}
	if l.kf, l.keyErr = KeyFor(d, src, options); l.keyErr == nil {
		l.key = l.kf.Key()
	}
	return l
}

// readEntry reads the lookup's entry and checks it.
func (l *lookup) readEntry(c *Cache, d *runtime.Device) {
	l.read = true
	if l.keyErr != nil {
		l.readErr = l.keyErr
		return
	}
	if l.e, l.readErr = readEntry(c.entryPath(l.key)); l.readErr == nil {
		l.ce, l.checkErr = checkEntry(d, l.key, l.e.b, false)
	}
}

// prefetched is a lookup Prefetch started; done closes when it is complete.
type prefetched struct {
	d       *runtime.Device
	src     runtime.Source
	options string
	done    chan struct{}
	l       *lookup
}

// Prefetch starts BuildProgram's lookup of src built with options on d on
// another goroutine (runtime.Device.PrefetchProgram calls it before the
// device's context is made): a hit's key, read and checks then run in time
// the process otherwise spends waiting for the driver to make the context
// (docs/OWNCOST.md has the figures).
// The next BuildProgram on d takes it when its arguments are the same and
// waits for it if it is still running; the lookups of d it does not take are
// dropped. Where the policy leaves the cache off for d it does nothing.
func (c *Cache) Prefetch(d *runtime.Device, src runtime.Source, options string) {
	if !c.policy(d).On {
		return
	}
	prefetchDriverIdentity(d) // the entry's check needs it
	p := &prefetched{d: d, src: src, options: options, done: make(chan struct{})}
	c.pmu.Lock()
	c.ahead = append(c.ahead, p)
	c.pmu.Unlock()
	go func() {
		defer close(p.done)
		start := time.Now()
		l := keyFor(d, src, options)
		l.readEntry(c, d)
		l.ahead = time.Since(start)
		p.l = l
	}()
}

// takePrefetch returns the lookup Prefetch started for these arguments, once
// it is complete, or nil; it forgets every lookup started for d.
func (c *Cache) takePrefetch(d *runtime.Device, src runtime.Source, options string) *lookup {
	c.pmu.Lock()
	var mine *prefetched
	kept := c.ahead[:0]
	for _, p := range c.ahead {
		switch {
		case p.d != d:
			kept = append(kept, p)
		case mine == nil && p.src == src && p.options == options:
			mine = p
		}
	}
	clear(c.ahead[len(kept):])
	c.ahead = kept
	c.pmu.Unlock()
	if mine == nil {
		return nil
	}
	<-mine.done
	return mine.l
}
