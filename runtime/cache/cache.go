// Package cache is clmeter's program binary cache: a driver's binaries stored on
// disk across processes under a key of everything they depend on, proven before
// they are trusted, with a policy per driver, deferred and detached stores, and
// the listing, verifying and savings of 'clmeter cache'.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/clmeter/clmeter/internal/atomicfile"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// Environment variables the cache reads (see Open).
const (
	DirEnv     = "CLMETER_CACHE_DIR"      // the cache folder
	MaxSizeEnv = "CLMETER_CACHE_MAX_SIZE" // the bound, e.g. 512MiB
	OffEnv     = "CLMETER_NO_CACHE"       // 1 turns the cache off
	DebugEnv   = "CLMETER_CACHE_DEBUG"    // 1 prints one line per event to stderr
)

// DefaultMaxSize is the cache's default bound: 512 MiB.
const DefaultMaxSize int64 = 512 << 20

// useRefresh is how stale an entry's use time (mtime) must be before a hit
// refreshes it: at most one metadata write an hour per entry.
const useRefresh = time.Hour

// entryMagic is the first line of an unsealed entry file (a sealed one's is
// longer: seal.go); a JSON header line and the payload follow.
const entryMagic = "CLMETER-CLBIN\n"

// maxHeaderBytes bounds the header line a reader accepts.
const maxHeaderBytes = 1 << 20

// entryExt is the file name extension of entries.
const entryExt = ".clbin"

// statsFile holds the hit/miss counters: one byte appended per event ('h' hit,
// 'm' miss, 'r' rejected entry, 'e' evicted entry). O_APPEND writes of one byte
// are atomic, so many processes can count at once; its size is the total.
const statsFile = "stats"

// A Cache stores program binaries on disk across processes, keyed by everything
// the binary depends on (see KeyFields). It implements ProgramCache. Reads take no
// lock; writes go to a temporary file in the entry's folder, are synced and renamed
// into place, so concurrent processes only ever see whole entries. A bad entry is
// deleted and rebuilt: the cache never makes a build fail.
type Cache struct {
	// Dir is the cache folder. Entries live in Dir/ab/abcdef....clbin.
	Dir string
	// MaxSize bounds the entries' total size in bytes; least-recently-used
	// entries are trimmed after each store. Zero or less means no bound.
	MaxSize int64
	// Debug, when not nil, receives one "clmeter cache: ..." line per hit, miss, reuse,
	// store, evict and reject.
	Debug io.Writer
	// Warn receives the one warning given when the folder cannot be written
	// (nil: os.Stderr).
	Warn io.Writer
	// Force turns the cache on for every driver, also where PolicyFor
	// leaves it off.
	Force bool
	// Defer keeps a miss's store off the critical path: BuildProgram does not
	// read the binary; StorePending (called by Manager.CloseContext, after the
	// work) reads and stores it. On PoCL the binary read then also holds the
	// work-group functions the launches compiled, so that a hit's first launch
	// does not compile either. False stores at once, inside BuildProgram.
	Defer bool
	// StoreCommand, when set, is the command line of a store child: StorePending
	// runs it, detached, with the keys to store appended, and does not wait (see
	// child.go); the command must call RunStoreJobs. Nil stores in this process.
	StoreCommand []string
	// WaitStore makes StorePending wait for the store child it started
	// (CLMETER_CACHE_STORE_WAIT=1; an interrupt ends the child).
	WaitStore bool

	now      func() time.Time
	warnOnce sync.Once
	mu       sync.Mutex // serialises this process's stores and trims
	pmu      sync.Mutex // guards pending, hits, loaded and ahead
	pending  []pendingStore
	hits     []entryFile     // hits whose bookkeeping waits for StorePending (pmu)
	loaded   []loadedProgram // hits' programs, kept for reuse until StorePending (pmu)
	ahead    []*prefetched   // lookups Prefetch started (pmu)
}

// New returns a cache in dir bounded by maxSize bytes. It touches no file.
// It warms the entry codecs in the background (warmCodecs).
func New(dir string, maxSize int64) *Cache {
	warmOnce.Do(func() { go warmCodecs() })
	return &Cache{Dir: dir, MaxSize: maxSize, now: time.Now}
}

var warmOnce sync.Once

// warmCodecs encodes and decodes an entry once, so that encoding/json has
// built its codecs for the key and header types before the first build looks
// an entry up: in a fresh process the first key and header cost 150-200 µs
// of reflection (seen on PoCL: a hit's lookup took 265 µs, its build 1.2 ms),
// while enumerating the platforms, which comes first, takes tens of ms.
//
// The header warmed has every field filled as a real one is (kernels with
// arguments, includes, environment, a creation time): warmed with empty
// fields, a real header's first decode still took 90-150 µs in a fresh
// process on PoCL, against 30-45 µs for the warmed one.
func warmCodecs() {
	kf := KeyFields{Format: FormatVersion, SourceSHA256: "0", Includes: []string{"a.h 0"}, Options: "-I.",
		Platform: "p", PlatformVendor: "v", PlatformVersion: "1", Device: "d", DeviceVendor: "v", DeviceVersion: "1",
		DriverVersion: "1", AddressBits: 64, Env: []string{"A=1"}}
	h := EntryHeader{KeyFields: kf, Key: kf.Key(), Source: "a.cl", Created: time.Now(),
		Kernels: []KernelSig{{Name: "k", Args: []string{"global float* x", "private int n"}}}, Driver: "lib 1 2 3", Proof: "0"}
	decodeEntry(encodeEntry(h, []byte{0}))
	// The seal check runs once here, over a payload long enough for the
	// CRC's three-way hardware loop, so that a hit is not the first to run
	// its code (the CRC-32C's tables alone cost a first use about 20 µs).
	// What is left of a hit's check in a fresh process is the entry's bytes
	// coming from memory: the first CRC over a just-read entry costs many times
	// a second one (docs/OWNCOST.md has the figures).
	payload := make([]byte, 8<<10)
	hb := []byte("{}")
	e := append(append([]byte(sealedLine(h.Key, hb, h.Driver, h.Kernels, payload)), "{}\n"...), payload...)
	sealedPayload(e, h.Key, h.Driver)
}

// EntryHeader is the readable header in front of each entry's driver bytes.
type EntryHeader struct {
	KeyFields
	// Key is the entry's key (its file name).
	Key string `json:"key"`
	// Source names the program the entry was built from (not part of the key).
	Source  string    `json:"source"`
	Created time.Time `json:"created"`
	// PayloadBytes and PayloadSHA256 describe the driver's binary that follows.
	PayloadBytes  int64  `json:"payload_bytes"`
	PayloadSHA256 string `json:"payload_sha256"`
	// Kernels are the program's kernels and arguments as the source build gave
	// them; a loaded binary must show the same (see proof.go).
	Kernels []KernelSig `json:"kernels"`
	// Driver is the identity of the driver library that loaded the payload
	// back (DriverIdentity); Proof the checksum that binds the key, the
	// payload, Driver and Kernels, written once the load matched.
	Driver string `json:"driver"`
	Proof  string `json:"proof"`
}

// entryPath is where the entry of key lives.
func (c *Cache) entryPath(key string) string {
	return filepath.Join(c.Dir, key[:2], key+entryExt)
}

// encodeEntry returns an entry file's bytes, sealed (seal.go) when its proof
// holds.
func encodeEntry(h EntryHeader, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	h.PayloadBytes = int64(len(payload))
	h.PayloadSHA256 = hex.EncodeToString(sum[:])
	hb, _ := json.Marshal(h)
	first := entryMagic
	if staticProof(h) == nil {
		first = sealedLine(h.Key, hb, h.Driver, h.Kernels, payload)
	}
	var b bytes.Buffer
	b.Grow(len(first) + len(hb) + 1 + len(payload))
	b.WriteString(first)
	b.Write(hb)
	b.WriteByte('\n')
	b.Write(payload)
	return b.Bytes()
}

// decodeEntry checks an entry file's bytes whole and returns its header and
// payload. The error text is the reason shown after "rejected: ".
func decodeEntry(b []byte) (EntryHeader, []byte, error) {
	var h EntryHeader
	rest, sf, ok := splitFirstLine(b)
	if !ok {
		return h, nil, errors.New("bad magic")
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || nl > maxHeaderBytes {
		return h, nil, errors.New("bad header")
	}
	// json.Marshal writes only valid UTF-8, and decoding would quietly turn a
	// damaged byte into U+FFFD.
	if !utf8.Valid(rest[:nl]) {
		return h, nil, errors.New("bad header")
	}
	if err := json.Unmarshal(rest[:nl], &h); err != nil {
		return h, nil, errors.New("bad header")
	}
	if h.Format != FormatVersion {
		return h, nil, fmt.Errorf("format version %d, want %d", h.Format, FormatVersion)
	}
	// The checksum covers only the payload: a damaged key field would otherwise
	// pass, and the entry would claim to be built for something it was not. A
	// field that held invalid UTF-8 was written as \ufffd and its key cannot be
	// recomputed; such an entry is checked against its key only.
	if h.KeyFields.Key() != h.Key && !bytes.Contains(rest[:nl], []byte(`\ufffd`)) {
		return h, nil, errors.New("key fields do not match the key")
	}
	payload := rest[nl+1:]
	if int64(len(payload)) != h.PayloadBytes {
		return h, nil, fmt.Errorf("truncated: payload %d bytes, header says %d", len(payload), h.PayloadBytes)
	}
	sum := sha256.Sum256(payload)
	if hex.EncodeToString(sum[:]) != h.PayloadSHA256 || (sf.crc != "" && payloadCRC(payload) != sf.crc) {
		return h, nil, errors.New("checksum mismatch")
	}
	return h, payload, nil
}

func (c *Cache) clock() time.Time {
	if c.now == nil {
		return time.Now()
	}
	return c.now()
}

func (c *Cache) debugf(format string, a ...any) {
	if c.Debug != nil {
		fmt.Fprintf(c.Debug, "clmeter cache: "+format+"\n", a...)
	}
}

func (c *Cache) warnf(format string, a ...any) {
	c.warnOnce.Do(func() {
		w := c.Warn
		if w == nil {
			w = os.Stderr
		}
		fmt.Fprintf(w, "clmeter cache: "+format+"\n", a...)
	})
}

// count appends event bytes to the stats file; failures are ignored (a lost
// count is acceptable).
func (c *Cache) count(events ...byte) {
	f, err := os.OpenFile(filepath.Join(c.Dir, statsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.Write(events)
	f.Close()
}

// BuildProgram builds src for d through the cache: on a hit, from the stored
// binary; on a miss or a bad entry, from source, then it stores the binary (at
// once, or with Defer after the work). Where the driver's policy leaves the
// cache off (PolicyFor) it builds from source. The cache's own failures
// never fail the build; BuildInfo.CacheNote says what happened ("hit", "miss",
// "rejected: <reason>", "off on nvidia").
func (c *Cache) BuildProgram(d *runtime.Device, src runtime.Source, options string) (*cl.Program, runtime.BuildInfo, error) {
	if pol := c.policy(d); !pol.On {
		p, info, err := d.BuildFromSource(src, options)
		info.CacheNote = "off on " + pol.Family
		return p, info, err
	}
	start := time.Now()
	l := c.takePrefetch(d, src, options)
	if l == nil {
		prefetchDriverIdentity(d)
		l = keyFor(d, src, options)
	}
	if l.keyErr != nil {
		return nil, runtime.BuildInfo{Options: options, CacheNote: "no key"}, l.keyErr
	}
	kf, key := l.kf, l.key
	short := key[:12]

	if c.Defer {
		if p, loaded := c.reusePending(key, d); p != nil {
			how := "built earlier in this process, stored after the work"
			if loaded {
				how = "loaded from the cache earlier in this process"
			}
			info := runtime.BuildInfo{Options: options, FromCache: true, CacheNote: "reused: " + how}
			info.Total = time.Since(start)
			c.debugf("reuse %s %s on %s (%s)", short, src.Name, d.Info.Name, how)
			return p, info, nil
		}
	}
	note := "miss"
	if !l.read {
		l.readEntry(c, d)
	}
	switch {
	case errors.Is(l.readErr, fs.ErrNotExist):
	case l.readErr != nil:
		note = "rejected: " + l.readErr.Error()
	default:
		p, info, derr := loadChecked(d, l.ce, l.checkErr, l.e.b, options)
		if derr == nil {
			info.FromCache = true
			info.CacheNote = "hit"
			info.Total, info.Ahead = time.Since(start), l.ahead
			c.afterHit(l.e)
			if c.Defer {
				c.keepLoaded(key, d, p)
			}
			c.debugf("hit %s %s on %s (%s: own %s, create %s, build %s; looked up ahead in %s)", short, src.Name, d.Info.Name, info.Total.Round(time.Microsecond),
				(info.Total - info.Create - info.Build).Round(time.Microsecond), info.Create.Round(time.Microsecond), info.Build.Round(time.Microsecond),
				info.Ahead.Round(time.Microsecond))
			return p, info, nil
		}
		note = "rejected: " + derr.Error()
		os.Remove(l.e.path)
		c.count('r')
		c.debugf("reject %s %s: %s", short, src.Name, derr)
	}

	p, info, err := d.BuildFromSource(src, options)
	info.CacheNote = note
	if err != nil {
		info.Total = time.Since(start)
		return nil, info, err
	}
	c.count('m')
	c.debugf("miss %s %s on %s", short, src.Name, d.Info.Name)
	if c.Defer {
		if err := c.deferStore(key, kf, src, options, p, d); err != nil {
			c.debugf("not stored %s: %v", short, err)
		}
		info.Total = time.Since(start)
		return p, info, nil
	}
	if _, err := c.proveAndStore(key, kf, src.Name, options, p, d); err != nil {
		c.debugf("not stored %s: %v", short, err)
	}
	info.Total = time.Since(start)
	return p, info, nil
}

// checkedEntry is an entry whose checks before the load passed: its payload
// and what the loaded kernels must match, the sealed kernels' digest (sealed)
// or the decoded header.
type checkedEntry struct {
	payload []byte
	kernels string
	header  EntryHeader
	sealed  bool
}

// checkEntry is a hit's checks before the driver loads the binary (the
// error says why the entry is rejected): unless whole is set, the seal and
// CRC (seal.go); else, or where they do not hold, the entry decoded whole and
// proven on d's driver library (proof.go).
func checkEntry(d *runtime.Device, key string, b []byte, whole bool) (checkedEntry, error) {
	var c checkedEntry
	if !whole {
		if c.payload, c.kernels, c.sealed = sealedPayload(b, key, DriverIdentity(d)); c.sealed {
			return c, nil
		}
	}
	h, payload, err := decodeEntry(b)
	if err == nil && h.Key != key {
		err = errors.New("key mismatch")
	}
	if err == nil {
		err = checkProof(h, d)
	}
	c.header, c.payload = h, payload
	return c, err
}

// loadEntry checks an entry file's bytes (b) for key on d (checkEntry) and
// loads its binary, which must then show the kernels the source build showed
// (for a sealed entry, those of its digest; where the driver describes them
// otherwise, the header's as sameSignature compares them).
// The error says why the entry is rejected.
func loadEntry(d *runtime.Device, key string, b []byte, options string, whole bool) (*cl.Program, runtime.BuildInfo, error) {
	c, err := checkEntry(d, key, b, whole)
	return loadChecked(d, c, err, b, options)
}

// loadChecked is loadEntry after the check: c and err are what checkEntry
// returned for the entry's bytes b.
func loadChecked(d *runtime.Device, c checkedEntry, err error, b []byte, options string) (*cl.Program, runtime.BuildInfo, error) {
	if err != nil {
		return nil, runtime.BuildInfo{Options: options}, err
	}
	h, payload, kernels, sealed := c.header, c.payload, c.kernels, c.sealed
	p, info, err := d.BuildFromBinary(payload, options)
	if err != nil {
		return nil, info, fmt.Errorf("binary not loadable: %v", oneLine(err.Error()))
	}
	got, err := programSignature(p)
	if err == nil && (!sealed || kernelsDigest(got) != kernels) {
		if sealed { // described otherwise than when proven: compare as sameSignature does
			h, _, err = decodeEntry(b)
		}
		if err == nil {
			err = sameSignature(h.Kernels, got)
		}
	}
	if err != nil {
		p.Release()
		return nil, info, fmt.Errorf("loaded binary does not match its source: %v", err)
	}
	return p, info, nil
}

// proveAndStore reads the binary of p (built from source on d), proves it
// (it must load back with p's kernels) and stores it with its proof.
func (c *Cache) proveAndStore(key string, kf KeyFields, source, options string, p *cl.Program, d *runtime.Device) (int64, error) {
	bins, err := p.Binaries()
	if err == nil && (len(bins) != 1 || len(bins[0]) == 0) {
		err = errors.New("the driver gave no binary")
	}
	if err != nil {
		return 0, err
	}
	sig, err := programSignature(p)
	if err != nil {
		return 0, fmt.Errorf("the source build's kernels: %w", err)
	}
	drv := DriverIdentity(d)
	proof, err := proveBinary(d, key, drv, bins[0], options, sig)
	if err != nil {
		return 0, err
	}
	return c.store(key, kf, source, bins[0], sig, drv, proof)
}

// oneLine is the first line of s (a build log follows an error's first line).
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// touch refreshes an entry's use time when it is older than useRefresh.
func (c *Cache) touch(path string) {
	st, err := os.Stat(path)
	if err != nil {
		return
	}
	now := c.clock()
	if now.Sub(st.ModTime()) >= useRefresh {
		os.Chtimes(path, now, now)
	}
}

// store writes an entry atomically (temporary file in the same folder, fsync,
// rename) and trims the cache to its bound.
// It returns the entry's size in bytes.
// The entry carries kernels, driver and proof as given (proveBinary makes the
// proof from the bytes it loaded: a payload that is not those bytes fails it).
func (c *Cache) store(key string, kf KeyFields, source string, payload []byte, kernels []KernelSig, driver, proof string) (int64, error) {
	if kernels == nil {
		kernels = []KernelSig{}
	}
	h := EntryHeader{KeyFields: kf, Key: key, Source: source, Created: c.clock().UTC().Truncate(time.Second), Kernels: kernels, Driver: driver, Proof: proof}
	data := encodeEntry(h, payload)
	if err := writeFileAtomic(c.entryPath(key), data, c.clock()); err != nil {
		c.warnf("cannot write to %s (%v); building without the cache", c.Dir, err)
		c.debugf("not stored %s: %v", key[:12], err)
		return 0, err
	}
	c.debugf("store %s %s (%d bytes)", key[:12], source, len(data))
	c.trim()
	return int64(len(data)), nil
}

// writeFileAtomic writes data to path atomically (making its folder) and sets
// its mtime to now.
func writeFileAtomic(path string, data []byte, now time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return err
	}
	os.Chtimes(path, now, now)
	return nil
}
