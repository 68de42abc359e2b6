package cl

import (
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// stderrMu serialises captures; stderrFD is their file, made once a process
// (unlinked at once) and emptied before each capture, so that a build pays a
// few system calls for the capture, not a file's creation.
var (
	stderrMu sync.Mutex
	stderrFD = -1
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

// captureStderr runs f with the process's stderr (fd 2) sent to a memory
// file and returns what was written there: OpenCL compilers (PoCL's clang)
// print warnings straight to fd 2 during clBuildProgram. Captures are serial;
// when fd 2 cannot be swapped, f runs as is.
//
// Four system calls, no more: the file is emptied (it is in append mode, so
// the driver's writes start at its beginning again), fd 2 is pointed at it and
// back at realStderr (fd 2 as it was at start), and it is read at offset 0.
// With a saved copy of fd 2 and seeks, a cache hit's capture cost 40-60 µs
// in a fresh process on PoCL.
func captureStderr(f func()) string {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	if !makeCaptureFile() {
		f()
		return ""
	}
	if realStderr == os.Stderr || syscall.Ftruncate(stderrFD, 0) != nil {
		f()
		return ""
	}
	if err := syscall.Dup3(stderrFD, 2, 0); err != nil {
		f()
		return ""
	}
	f()
	syscall.Dup3(int(realStderr.Fd()), 2, 0)
	// One read for a page of warnings or less; more, up to 1 MiB, page by page.
	var out []byte
	buf := make([]byte, 4096)
	for len(out) < 1<<20 {
		n, err := syscall.Pread(stderrFD, buf, int64(len(out)))
		if err != nil || n <= 0 {
			break
		}
		out = append(out, buf[:n]...)
		if n < len(buf) {
			break
		}
	}
	return string(out)
}

// PrepareStderrCapture makes the file of a build's stderr capture now, so that
// the first build does not: the runtime calls it on another goroutine while a
// device's context is made. The file's creation (a memfd and two fcntl
// calls) was on the first build's path before (docs/OWNCOST.md has the
// figures).
func PrepareStderrCapture() {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	makeCaptureFile()
}

// makeCaptureFile makes stderrFD once a process and says whether there is
// one; stderrMu is held.
func makeCaptureFile() bool {
	if stderrFD < 0 {
		fd, err := newCaptureFile()
		if err != nil {
			return false
		}
		stderrFD = fd
	}
	return true
}

// newCaptureFile is the capture's file, in append mode: an anonymous memory
// file (memfd_create, one system call), or where the kernel has none an
// unlinked temporary file (its creation cost a cache hit's first build
// 100-170 µs).
func newCaptureFile() (int, error) {
	fd, err := unix.MemfdCreate("clmeter-build-stderr", unix.MFD_CLOEXEC)
	if err != nil {
		tmp, terr := os.CreateTemp("", "clmeter-build-stderr-")
		if terr != nil {
			return -1, terr
		}
		os.Remove(tmp.Name())
		fd, err = syscall.Dup(int(tmp.Fd()))
		tmp.Close()
		if err != nil {
			return -1, err
		}
		syscall.CloseOnExec(fd)
	}
	flags, err := unix.FcntlInt(uintptr(fd), syscall.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(uintptr(fd), syscall.F_SETFL, flags|syscall.O_APPEND)
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}
