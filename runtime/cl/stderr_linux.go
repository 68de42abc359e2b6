package cl

import (
	"io"
	"os"
	"sync"
	"syscall"
)

// stderrMu serialises captures; stderrFile is their file, made once a process
// (unlinked at once) and emptied before each capture, so that a build pays a
// few system calls for the capture, not a file's creation.
var (
	stderrMu   sync.Mutex
	stderrFile *os.File
)

// captureStderr runs f with the process's stderr (fd 2) sent to a temporary
// file and returns what was written there: OpenCL compilers (PoCL's clang)
// print warnings straight to fd 2 during clBuildProgram. Captures are serial;
// when fd 2 cannot be swapped, f runs as is.
func captureStderr(f func()) string {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	if stderrFile == nil {
		tmp, err := os.CreateTemp("", "clmeter-build-stderr-")
		if err != nil {
			f()
			return ""
		}
		os.Remove(tmp.Name())
		stderrFile = tmp
	}
	tmp := stderrFile
	if err := tmp.Truncate(0); err != nil {
		f()
		return ""
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		f()
		return ""
	}
	saved, err := syscall.Dup(2)
	if err != nil {
		f()
		return ""
	}
	defer syscall.Close(saved)
	if err := syscall.Dup3(int(tmp.Fd()), 2, 0); err != nil {
		f()
		return ""
	}
	f()
	syscall.Dup3(saved, 2, 0)
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(tmp, 1<<20))
	return string(b)
}
