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

// readEntry reads an entry file whole.
func readEntry(path string) (entryFile, error) {
	b, err := os.ReadFile(path)
	return entryFile{path: path, b: b}, err
}

// afterHit is a hit's bookkeeping: the entry's use time and the hit count.
func (c *Cache) afterHit(e entryFile) {
	c.touch(e.path)
	c.count('h')
}

// lookupHit is a hit's own work before the driver loads the binary: the key,
// the read of the entry, its checks, and the hit's bookkeeping
// (BenchmarkCacheHitOwn).
func (c *Cache) lookupHit(d *runtime.Device, src runtime.Source, options string) ([]byte, error) {
	key := KeyFor(d, src, options).Key()
	e, err := readEntry(c.entryPath(key))
	if err != nil {
		return nil, err
	}
	h, payload, err := decodeEntry(e.b)
	if err == nil {
		err = checkProof(h, d)
	}
	if err != nil {
		return nil, err
	}
	c.afterHit(e)
	return payload, nil
}
