package cache

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// A Entry is one entry file as listed.
type Entry struct {
	Key  string
	Path string
	// Size is the file's size in bytes; Used its last use (mtime).
	Size int64
	Used time.Time
	// Header is nil when the header cannot be read; Err says why the entry is
	// bad (nil for a whole, valid one; Entries checks headers only, Verify all).
	Header *EntryHeader
	Err    error
}

// walk lists every entry file, and removes temporary files left for over an
// hour by writers that died.
func (c *Cache) walk() ([]Entry, error) {
	out := []Entry{}
	subs, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	now := c.clock()
	for _, s := range subs {
		if !s.IsDir() || len(s.Name()) != 2 {
			continue
		}
		files, err := os.ReadDir(filepath.Join(c.Dir, s.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			p := filepath.Join(c.Dir, s.Name(), f.Name())
			info, err := f.Info()
			if err != nil {
				continue
			}
			if strings.HasPrefix(f.Name(), ".tmp-") {
				if now.Sub(info.ModTime()) > time.Hour {
					os.Remove(p)
				}
				continue
			}
			if !strings.HasSuffix(f.Name(), entryExt) {
				continue
			}
			out = append(out, Entry{Key: strings.TrimSuffix(f.Name(), entryExt), Path: p, Size: info.Size(), Used: info.ModTime()})
		}
	}
	return out, nil
}

// trim removes least-recently-used entries until the total is within MaxSize.
func (c *Cache) trim() {
	if c.MaxSize <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	es, err := c.walk()
	if err != nil {
		return
	}
	var total int64
	for _, e := range es {
		total += e.Size
	}
	if total <= c.MaxSize {
		return
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Used.Before(es[j].Used) })
	for _, e := range es {
		if total <= c.MaxSize {
			break
		}
		if err := os.Remove(e.Path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.Size
			if err == nil {
				c.count('e')
				c.debugf("evict %s (%d bytes, last used %s)", e.Key[:min(12, len(e.Key))], e.Size, e.Used.Format(time.RFC3339))
			}
		}
	}
}

// readHeader reads an entry's header only.
func readHeader(path string) (*EntryHeader, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a FIFO opens at once
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errNotEntry
	}
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	rest, _, ok := splitFirstLine(buf)
	if !ok {
		return nil, errors.New("bad magic")
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, errors.New("bad header")
	}
	var h EntryHeader
	if err := json.Unmarshal(rest[:nl], &h); err != nil {
		return nil, errors.New("bad header")
	}
	return &h, nil
}

// Entries lists the entries, most recently used first, with their headers (a
// header that cannot be read sets Err). Payloads are not checked: see Verify.
func (c *Cache) Entries() ([]Entry, error) {
	es, err := c.walk()
	if err != nil {
		return nil, err
	}
	for i := range es {
		es[i].Header, es[i].Err = readHeader(es[i].Path)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Used.After(es[j].Used) })
	return es, nil
}

// Verify reads every entry whole and checks its magic, header, format, length,
// checksum, proof (see proof.go) and that its key matches its file name;
// it removes the bad ones and returns every entry with Err set on the bad. It
// loads no binary: VerifyOn also does what a build would.
func (c *Cache) Verify() ([]Entry, error) { return c.VerifyOn(nil) }

// VerifyOn is Verify, and for each entry made for one of devs it also checks
// what a build on that device checks before trusting the entry: that it was
// proven on the device's driver library, and that its binary loads with the
// kernels and arguments of its source. An entry is loaded only once proven on
// that driver (loaded back, in the process that stored it).
func (c *Cache) VerifyOn(devs []*runtime.Device) ([]Entry, error) {
	es, err := c.walk()
	if err != nil {
		return nil, err
	}
	for i := range es {
		e, err := readEntry(es[i].Path)
		b := e.b
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) { // removed meanwhile by another process
				continue
			}
			es[i].Err = err
		} else {
			h, _, derr := decodeEntry(b)
			if derr == nil && h.Key != es[i].Key {
				derr = errors.New("key does not match file name")
			}
			if derr == nil {
				derr = staticProof(h)
			}
			if derr == nil {
				if d := entryDevice(h, devs); d != nil {
					var p *cl.Program
					if p, _, derr = loadEntry(d, h.Key, b, h.Options, true); derr == nil {
						p.Release()
					}
				}
			}
			if h.Format != 0 {
				es[i].Header = &h
			}
			es[i].Err = derr
		}
		if es[i].Err != nil {
			os.Remove(es[i].Path)
			c.count('r')
			c.debugf("reject %s: %v", es[i].Key, es[i].Err)
		}
	}
	return es, nil
}

// entryDevice is the device of devs an entry was made for, or nil.
func entryDevice(h EntryHeader, devs []*runtime.Device) *runtime.Device {
	for _, d := range devs {
		if keyText(d.Platform.Name) == h.Platform && keyText(d.Info.Name) == h.Device &&
			keyText(d.Info.DriverVersion) == h.DriverVersion && d.Info.AddressBits == h.AddressBits {
			return d
		}
	}
	return nil
}

// Clear removes every entry, temporary file and the counters; it returns how
// many entries and bytes it removed.
func (c *Cache) Clear() (entries int, bytes int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	es, err := c.walk()
	if err != nil {
		return 0, 0, err
	}
	for _, e := range es {
		if rerr := os.Remove(e.Path); rerr == nil {
			entries++
			bytes += e.Size
		} else if !errors.Is(rerr, fs.ErrNotExist) && err == nil {
			err = rerr
		}
	}
	subs, _ := os.ReadDir(c.Dir)
	for _, s := range subs {
		if s.IsDir() && len(s.Name()) == 2 {
			sub := filepath.Join(c.Dir, s.Name())
			files, _ := os.ReadDir(sub)
			for _, f := range files {
				if strings.HasPrefix(f.Name(), ".tmp-") {
					os.Remove(filepath.Join(sub, f.Name()))
				}
			}
			os.Remove(sub) // only when empty
		}
	}
	if rerr := os.Remove(filepath.Join(c.Dir, statsFile)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
		err = rerr
	}
	return entries, bytes, err
}

// Stats sums up a cache folder.
type Stats struct {
	Dir string `json:"dir"`
	// Entries and Bytes are the entry files and their total size.
	Entries int   `json:"entries"`
	Bytes   int64 `json:"bytes"`
	// MaxBytes is the bound (0: none).
	MaxBytes int64 `json:"max_bytes"`
	// Counters recorded by every process since the last clear.
	Hits      int64 `json:"hits"`
	Misses    int64 `json:"misses"`
	Rejected  int64 `json:"rejected"`
	Evictions int64 `json:"evictions"`
	// Savings are what 'clmeter cache bench' measured each cache to save, per
	// device, most recent first.
	Savings []Savings `json:"savings"`
}

// Stats counts the entries and reads the recorded counters.
func (c *Cache) Stats() (Stats, error) {
	s := Stats{Dir: c.Dir, MaxBytes: c.MaxSize}
	es, err := c.walk()
	if err != nil {
		return s, err
	}
	for _, e := range es {
		s.Entries++
		s.Bytes += e.Size
	}
	if s.Savings, err = c.Savings(); err != nil {
		return s, err
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, statsFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	for _, ev := range b {
		switch ev {
		case 'h':
			s.Hits++
		case 'm':
			s.Misses++
		case 'r':
			s.Rejected++
		case 'e':
			s.Evictions++
		}
	}
	return s, nil
}
