//go:build !amd64

package profile

// CoreClockMHz measures the clock this process's core runs at; on this
// architecture it cannot, and ok is false.
func CoreClockMHz() (mhz int, ok bool) { return 0, false }
