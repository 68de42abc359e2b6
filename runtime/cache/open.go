package cache

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/clmeter/clmeter/units"
)

// DefaultDir is the cache folder when the user names none (CLMETER_CACHE_DIR,
// --cache-dir): os.UserCacheDir()/clmeter.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: %w (set %s)", err, DirEnv)
	}
	return filepath.Join(d, "clmeter"), nil
}

// Config is the cache a command asks for, from its flags and environment
// (cmd/clmeter binds the CLMETER_* variables; this package reads none).
type Config struct {
	// Dir is the cache folder (--cache-dir, CLMETER_CACHE_DIR; "": DefaultDir).
	Dir string
	// MaxSize bounds the cache, in the units grammar ("512MiB"; "":
	// DefaultMaxSize).
	MaxSize string
	// Off builds every program from source (--no-cache, CLMETER_NO_CACHE=1).
	Off bool
	// Force turns the cache on for every driver (CLMETER_CACHE=1; see PolicyFor).
	Force bool
	// Debug prints one line per cache event on Stderr (CLMETER_CACHE_DEBUG=1).
	Debug bool
	// StoreCommand runs a detached store child for a miss's entry (see
	// Cache.StoreCommand); nil stores in this process after the work.
	StoreCommand []string
	// WaitStore waits for the store child before returning (see
	// Cache.WaitStore; CLMETER_CACHE_STORE_WAIT=1).
	WaitStore bool
	// Stderr receives the warnings and debug lines (nil: os.Stderr).
	Stderr io.Writer
}

// Open makes the cache the commands use, as cfg says. Its stores are deferred
// (Cache.Defer). cfg.Off returns a nil cache. A folder that cannot be created
// or written returns a nil cache and a warning to show once; err is only for a
// bad size.
func Open(cfg Config) (c *Cache, warning string, err error) {
	size := DefaultMaxSize
	if cfg.MaxSize != "" {
		if size, err = units.ParseByteSize(cfg.MaxSize); err != nil {
			return nil, "", fmt.Errorf("cache max size: %w", err)
		}
	}
	if cfg.Off {
		return nil, "", nil
	}
	dir := cfg.Dir
	if dir == "" {
		if dir, err = DefaultDir(); err != nil {
			return nil, fmt.Sprintf("clmeter cache: %v; building without the cache", err), nil
		}
	}
	if err := probeWritable(dir); err != nil {
		return nil, fmt.Sprintf("clmeter cache: folder %s is not writable (%v); building without the cache", dir, err), nil
	}
	c = New(dir, size)
	c.Defer, c.Force, c.StoreCommand, c.WaitStore = true, cfg.Force, cfg.StoreCommand, cfg.WaitStore
	c.Warn = cfg.Stderr
	if cfg.Debug {
		c.Debug = cfg.Stderr
		if c.Debug == nil {
			c.Debug = os.Stderr
		}
	}
	return c, "", nil
}

// probeWritable creates dir and a file in it, and removes the file.
func probeWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
