package cache

import (
	"os"
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// entryFile is an entry file as read: its bytes and where and when it was
// last used.
type entryFile struct {
	path string
	b    []byte
	used time.Time // mtime
}

// afterHit is a hit's bookkeeping: the entry's use time (refreshed when older
// than useRefresh) and the hit count. With Defer it waits for StorePending,
// after the work: the build needs neither write.
func (c *Cache) afterHit(e entryFile) {
	if c.Defer {
		c.pmu.Lock()
		c.hits = append(c.hits, entryFile{path: e.path, used: e.used}) // not its bytes
		c.pmu.Unlock()
		return
	}
	c.recordHits([]entryFile{e})
}

// recordHits refreshes the use time of the entries hit and counts the hits.
func (c *Cache) recordHits(hits []entryFile) {
	if len(hits) == 0 {
		return
	}
	now := c.clock()
	ev := make([]byte, len(hits))
	for i, e := range hits {
		if now.Sub(e.used) >= useRefresh {
			os.Chtimes(e.path, now, now)
		}
		ev[i] = 'h'
	}
	c.count(ev...)
}

// takeHits returns the hits whose bookkeeping is deferred, and forgets them.
func (c *Cache) takeHits() []entryFile {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	h := c.hits
	c.hits = nil
	return h
}

// lookupHit is a hit's own work before the driver loads the binary: the key,
// the read of the entry, its checks, and the hit's bookkeeping
// (BenchmarkCacheHitOwn).
func (c *Cache) lookupHit(d *runtime.Device, src runtime.Source, options string) ([]byte, error) {
	l := keyFor(d, src, options)
	l.readEntry(c, d)
	if l.readErr != nil {
		return nil, l.readErr
	}
	if l.checkErr != nil {
		return nil, l.checkErr
	}
	c.afterHit(l.e)
	return l.ce.payload, nil
}
