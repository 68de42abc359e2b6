package runtime

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"syscall"
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

// lockDirMade remembers the lock folder made (or failed) once a process.
var (
	lockDirMu   sync.Mutex
	lockDirMade = map[string]error{}
)

// lockDirOnce makes dir once a process.
func lockDirOnce(dir string) error {
	lockDirMu.Lock()
	defer lockDirMu.Unlock()
	err, ok := lockDirMade[dir]
	if !ok {
		err = os.MkdirAll(dir, 0o700)
		lockDirMade[dir] = err
	}
	return err
}

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
	dir := buildLockDir()
	if err := lockDirOnce(dir); err != nil {
		return func() {}
	}
	f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%08x.lock", h.Sum32())), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
