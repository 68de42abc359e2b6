package runtime

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestLockBuildSerialises checks that a second lock of the same build waits
// for the first's release, and that a different build does not wait.
func TestLockBuildSerialises(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	unlock := lockBuild(nil, []byte("__kernel void k() {}"), "-DX=1")
	var got atomic.Bool
	done := make(chan struct{})
	go func() {
		// flock locks belong to the open file, so a second open in this
		// process waits like another process would.
		u := lockBuild(nil, []byte("__kernel void k() {}"), "-DX=1")
		got.Store(true)
		u()
		close(done)
	}()
	other := make(chan struct{})
	go func() {
		lockBuild(nil, []byte("__kernel void k() {}"), "-DX=2")()
		close(other)
	}()
	select {
	case <-other:
	case <-time.After(10 * time.Second):
		t.Fatal("a different build waited for the lock")
	}
	time.Sleep(50 * time.Millisecond)
	if got.Load() {
		t.Fatal("the same build took the lock while it was held")
	}
	unlock()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting build never got the lock after its release")
	}
}

// TestPrepareBuild: preparing makes the lock folder (a first build's lock then
// opens its file at once) and leaves no lock held.
func TestPrepareBuild(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	if _, err := os.Stat(buildLockDir()); err == nil {
		t.Fatal("the lock folder exists before prepareBuild")
	}
	prepareBuild()
	path := filepath.Join(buildLockDir(), "prepare.lock")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("prepareBuild made no lock file: %v", err)
	}
	fd, err := openLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("prepareBuild left its lock held: %v", err)
	}
}

// TestLockBuildAhead: the wait of a lock taken ahead returns once the lock is
// held, not before another holder's release, and its release frees the lock.
func TestLockBuildAhead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	src := []byte("__kernel void k() {}")
	held := lockBuild(nil, src, "")
	ahead := lockBuildAhead(nil, src, "")
	got := make(chan func())
	go func() { got <- ahead.wait() }()
	select {
	case <-got:
		t.Fatal("the lock taken ahead was had while another held it")
	case <-time.After(50 * time.Millisecond):
	}
	held()
	var unlock func()
	select {
	case unlock = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the lock taken ahead never came after the release")
	}
	unlock()
	done := make(chan struct{})
	go func() { lockBuild(nil, src, "")(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the release of a lock taken ahead did not free it")
	}
	// A dropped lock (a build that failed before clBuildProgram) is freed
	// once it was had: taken ahead while another held it, then let go.
	held = lockBuild(nil, src, "")
	lockBuildAhead(nil, src, "").drop()
	time.Sleep(50 * time.Millisecond) // the lock taken ahead waits in flock
	held()
	time.Sleep(50 * time.Millisecond) // ... and has it now
	done = make(chan struct{})
	go func() { lockBuild(nil, src, "")(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a dropped lock taken ahead was never released")
	}
}
