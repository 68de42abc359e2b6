//go:build !linux

package cl

// captureStderr runs f; outside Linux the driver's stderr is left as it is.
func captureStderr(f func()) string {
	f()
	return ""
}
