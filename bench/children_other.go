//go:build !linux

package main

// storeChildren waits for the store children of the cache-exit row's misses
// before the next timed process starts (untimed), so that none competes with
// it for the CPU (bench ends them at once on Linux: children_linux.go).
type storeChildren struct{}

func newStoreChildren() *storeChildren { return &storeChildren{} }

// end waits for the store child of the miss that used cacheDir.
func (s *storeChildren) end(cacheDir string) error { return waitStores(cacheDir) }

func (s *storeChildren) close() {}

// how says how the row's store children were ended.
func (s *storeChildren) how() string {
	return "each miss's store child awaited before the next process (untimed)"
}
