//go:build !linux

package cl

import "os"

// Stderr is the process's standard error (see the Linux version).
func Stderr() *os.File { return os.Stderr }

// captureStderr runs f; outside Linux the driver's stderr is left as it is.
func captureStderr(f func()) (string, bool) {
	f()
	return "", false
}

// PrepareStderrCapture does nothing outside Linux, where builds capture nothing.
func PrepareStderrCapture() {}
