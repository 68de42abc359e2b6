package cl

import (
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// stderrMu serialises captures; stderrFile is their file, made once a process
// (unlinked at once) and emptied before each capture, so that a build pays a
// few system calls for the capture, not a file's creation.
var (
	stderrMu   sync.Mutex
	stderrFile *os.File
)

// realStderr is a copy of fd 2 made when the process started, before any
// capture: writes to it reach the terminal while a capture holds fd 2.
var realStderr = func() *os.File {
	fd, err := syscall.Dup(2)
	if err != nil {
		return os.Stderr
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "/dev/stderr")
}()

// Stderr is the process's standard error as it was at start. A build swaps fd
// 2 for a capture (captureStderr), and an interrupt can end the work while a
// build is still running in the driver: messages written to os.Stderr then
// would land in the capture and be lost; written here, they are not.
func Stderr() *os.File { return realStderr }

// captureStderr runs f with the process's stderr (fd 2) sent to a temporary
// file and returns what was written there: OpenCL compilers (PoCL's clang)
// print warnings straight to fd 2 during clBuildProgram. Captures are serial;
// when fd 2 cannot be swapped, f runs as is.
func captureStderr(f func()) string {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	if stderrFile == nil {
		tmp, err := newCaptureFile()
		if err != nil {
			f()
			return ""
		}
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

// newCaptureFile is the capture's file: an anonymous memory file
// (memfd_create, one system call), or where the kernel has none an unlinked
// temporary file (its creation cost a cache hit's first build 100-170 µs).
func newCaptureFile() (*os.File, error) {
	if fd, err := unix.MemfdCreate("clmeter-build-stderr", unix.MFD_CLOEXEC); err == nil {
		return os.NewFile(uintptr(fd), "clmeter-build-stderr"), nil
	}
	tmp, err := os.CreateTemp("", "clmeter-build-stderr-")
	if err != nil {
		return nil, err
	}
	os.Remove(tmp.Name())
	return tmp, nil
}
