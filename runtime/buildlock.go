package runtime

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Builds of one program are made by one process at a time. PoCL's kernel
// cache is shared by every process of a user, and PoCL 3.1 fails or aborts
// when processes compile the same program into it at once (seen here: 16
// processes on a fresh cache; pocl/pocl#430, #1480 report the same). An
// advisory lock (flock) per program, device and options serialises those
// builds across processes; builds of different programs still run at once.
// The lock is the kernel's: it is released when the process ends, however it
// ends. Where no lock can be taken (no writable temporary folder), the build
// goes on without one.

// buildLockTable is the lock name's checksum (Castagnoli: done in hardware, so
// hashing a binary of megabytes costs microseconds; a collision only
// serialises two builds).
var buildLockTable = crc32.MakeTable(crc32.Castagnoli)

// buildLockDir is the folder of the lock files: one per user, in the
// temporary folder (lock files are empty and never removed: removing one
// while another process waits on it would let a third take a new one).
func buildLockDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("clmeter-%d", os.Getuid()), "build-locks")
}

// openLock opens (creating) the lock file at path, and its folder when the
// open finds none.
func openLock(path string) (int, error) {
	const flags = syscall.O_CREAT | syscall.O_RDWR | syscall.O_CLOEXEC
	fd, err := syscall.Open(path, flags, 0o600)
	if err == syscall.ENOENT {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return -1, err
		}
		fd, err = syscall.Open(path, flags, 0o600)
	}
	return fd, err
}

// prepareBuildOnce starts prepareBuild once a process.
var prepareBuildOnce sync.Once

// prepareBuild makes, before a first build needs them, what every build
// uses: the stderr capture's file and the lock folder, with one lock file
// opened, locked and closed in it (so the folder's lookup and the lock's
// system calls are warm). Device.Context starts it on another goroutine while
// the context is made. A hit's first build in a fresh process paid these on
// its path before (docs/OWNCOST.md has the figures).
func prepareBuild() {
	cl.PrepareStderrCapture()
	fd, err := openLock(filepath.Join(buildLockDir(), "prepare.lock"))
	if err != nil {
		return
	}
	// A shared lock that never waits: processes preparing at once share it.
	if syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) == nil {
		syscall.Flock(fd, syscall.LOCK_UN)
	}
	syscall.Close(fd)
}

// lockBuildAhead starts taking the build lock of what (lockBuild) on another
// goroutine. The builders start it before the driver makes the program, so
// that the lock's work (a checksum of the binary, the lock file's name, its
// open and flock, tens of µs in a fresh process) runs beside
// clCreateProgramWith*, not before clBuildProgram; a wait for another
// process's build still counts in the build's time.
func lockBuildAhead(d *Device, what []byte, options string) aheadLock {
	l := make(aheadLock, 1)
	go func() { l <- lockBuild(d, what, options) }()
	return l
}

// aheadLock is a build lock being taken on another goroutine: it gives the
// lock's release once the lock is held.
type aheadLock chan func()

// wait waits until the lock is held and returns its release.
func (l aheadLock) wait() (unlock func()) { return <-l }

// drop releases the lock once it is held, without waiting for it: for a
// build that ends before clBuildProgram.
func (l aheadLock) drop() { go func() { (<-l)() }() }

// lockBuild takes the cross-process lock of a build of what (a source text or
// a binary) with options on d, waiting while another process holds it, and
// returns its release. It never fails: without a lock the build runs unlocked.
func lockBuild(d *Device, what []byte, options string) (unlock func()) {
	h := crc32.New(buildLockTable)
	if d != nil {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", d.Platform.Name, d.Info.Name, d.Info.DriverVersion)
	}
	fmt.Fprintf(h, "%s\x00", options)
	h.Write(what)
	// Raw system calls: open, flock, and at the release flock and close.
	// Through os.File the lock and its release cost a cache hit 60-110 µs
	// in a fresh process (the file's poller registration, a MkdirAll).
	path := filepath.Join(buildLockDir(), fmt.Sprintf("%08x.lock", h.Sum32()))
	fd, err := openLock(path)
	if err != nil {
		return func() {}
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return func() {}
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		syscall.Close(fd)
	}
}
