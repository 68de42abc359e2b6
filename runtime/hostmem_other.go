//go:build !linux

package runtime

// Populate leaves b's pages to their first touch where the system has no
// populate call.
func Populate(b []byte) {}
