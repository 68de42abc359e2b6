package cl

import (
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// capture is the process's one capture of fd 2 (fd 2 is one a process):
// its file, made once a process (unlinked at once), and the builds capturing
// now. While any build runs, fd 2 points at the file; the first build of a
// group empties it and the last points fd 2 back. mu is held only around
// these steps, never across a build: builds on several devices run at once.
var capture = captureState{fd: -1}

// captureState is capture's type.
type captureState struct {
	mu sync.Mutex
	fd int // -1 before the file is made (makeCaptureFile)
	// active is the builds capturing now; begun counts every capture begun.
	active int
	begun  uint64
}

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
// file and returns what was written there while f ran: OpenCL compilers
// (PoCL's clang) print warnings straight to fd 2 during clBuildProgram. When
// fd 2 cannot be swapped, f runs as is.
//
// Builds run at once (one a device): fd 2 points at the file from the first
// capture's start to the last one's end, so nothing a driver prints reaches
// the terminal while any build runs; each capture returns the bytes written
// between its own start and end. shared is true when another capture ran
// during any of that time: the bytes may then be the other build's too (fd 2
// is one a process, and what a driver writes there says not whose it is).
//
// A lone capture costs four system calls: the file is emptied (it is in
// append mode, so the driver's writes start at its beginning again), fd 2 is
// pointed at it and back at realStderr (fd 2 as it was at start), and it is
// read; two more (fstat) find its size at the start and end. With a saved copy
// of fd 2 and seeks, a cache hit's capture cost 40-60 µs in a fresh process
// on PoCL.
func captureStderr(f func()) (out string, shared bool) {
	from, seq, alone, ok := beginCapture()
	if !ok {
		f()
		return "", false
	}
	f()
	out, others := endCapture(from, seq)
	return out, others || !alone
}

// beginCapture starts a capture: it points fd 2 at the file when no other
// capture runs, and returns the file's size (where this capture's bytes
// start), the capture's sequence number and whether no other capture runs.
// ok is false when fd 2 could not be swapped (nothing is captured).
func beginCapture() (from int64, seq uint64, alone, ok bool) {
	c := &capture
	c.mu.Lock()
	defer c.mu.Unlock()
	if !makeCaptureFile() || realStderr == os.Stderr {
		return 0, 0, false, false
	}
	alone = c.active == 0
	if alone {
		if syscall.Ftruncate(c.fd, 0) != nil || syscall.Dup3(c.fd, 2, 0) != nil {
			return 0, 0, false, false
		}
	} else if from = fileSize(c.fd); from < 0 {
		return 0, 0, false, false
	}
	c.active++
	c.begun++
	return from, c.begun, alone, true
}

// endCapture ends the capture begun as number seq at from, reads its bytes
// (before a next group's first capture can empty the file) and, when it was
// the last running, points fd 2 back. others is true when another capture
// began after it or still runs.
func endCapture(from int64, seq uint64) (out string, others bool) {
	c := &capture
	c.mu.Lock()
	defer c.mu.Unlock()
	others = c.active > 1 || c.begun != seq
	to := fileSize(c.fd)
	c.active--
	if c.active == 0 {
		syscall.Dup3(int(realStderr.Fd()), 2, 0)
	}
	// Up to 1 MiB, a page at a time.
	var b []byte
	buf := make([]byte, 4096)
	for at := from; at < to && len(b) < 1<<20; {
		n, err := syscall.Pread(c.fd, buf[:min(int64(len(buf)), to-at)], at)
		if err != nil || n <= 0 {
			break
		}
		b = append(b, buf[:n]...)
		at += int64(n)
	}
	return string(b), others
}

// fileSize is fd's size, or -1.
func fileSize(fd int) int64 {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return -1
	}
	return st.Size
}

// PrepareStderrCapture makes the file of a build's stderr capture now, so that
// the first build does not: the runtime calls it on another goroutine while a
// device's context is made. The file's creation (a memfd and two fcntl
// calls) was on the first build's path before (docs/OWNCOST.md has the
// figures).
func PrepareStderrCapture() {
	capture.mu.Lock()
	defer capture.mu.Unlock()
	makeCaptureFile()
}

// makeCaptureFile makes the capture's file once a process and says whether
// there is one; capture.mu is held.
func makeCaptureFile() bool {
	if capture.fd < 0 {
		fd, err := newCaptureFile()
		if err != nil {
			return false
		}
		capture.fd = fd
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
