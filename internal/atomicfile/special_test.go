package atomicfile

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSymlinkReplacesItsTarget: a write through a symbolic link replaces the
// file it names and keeps the link; a dangling link's file is made.
func TestSymlinkReplacesItsTarget(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link")
	os.WriteFile(real, []byte("old\n"), 0o644)
	os.Symlink("real.json", link)
	if err := Check(link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new\n" {
		t.Errorf("the link's file holds %q, want new", b)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("made.json", dangling)
	if err := WriteFile(dangling, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.json")); string(b) != "x" {
		t.Errorf("a dangling link's file holds %q", b)
	}
	if n := names(t, dir); len(n) != 4 {
		t.Errorf("folder holds %v, want the two links and their files", n)
	}
}

// TestFIFOIsWrittenThrough: a FIFO stays a FIFO and its reader gets the
// whole content.
func TestFIFOIsWrittenThrough(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := Check(fifo); err != nil || !IsStream(fifo) {
		t.Fatalf("check %v, stream %v", err, IsStream(fifo))
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through\n" {
		t.Errorf("the reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

// TestCharDeviceIsWrittenThrough: a copy of /dev/null (mknod, as root) stays
// a character device; /dev/full's error is the write's.
func TestCharDeviceIsWrittenThrough(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod needs root")
	}
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Skipf("mknod: %v", err)
	}
	if err := Check(null); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(null, []byte("gone\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		err := WriteFile("/dev/full", []byte("x"))
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("write /dev/full: %v, want ENOSPC", err)
		}
	}
}

// TestCheckRefuses: what is no output is refused before any work, with one
// line naming it.
func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
		if err := Check(sock); err == nil || !strings.Contains(err.Error(), "is a socket") {
			t.Errorf("socket: %v", err)
		}
	}
	long := filepath.Join(dir, strings.Repeat("a", 300))
	if err := Check(long); err == nil || !strings.Contains(err.Error(), "300 bytes long") {
		t.Errorf("long name: %v", err)
	}
	if err := Check(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: %v", err)
	}
	// A name just within NAME_MAX takes its temporary file.
	ok := filepath.Join(dir, strings.Repeat("b", 255))
	if err := WriteFile(ok, []byte("x")); err != nil {
		t.Errorf("a 255-byte name: %v", err)
	}
	if os.Geteuid() == 0 {
		blk := filepath.Join(dir, "blk")
		if err := syscall.Mknod(blk, syscall.S_IFBLK|0o600, int(7<<8)); err == nil {
			if err := Check(blk); err == nil || !strings.Contains(err.Error(), "block device") {
				t.Errorf("block device: %v", err)
			}
			if err := WriteFile(blk, nil); err == nil {
				t.Errorf("a block device was written")
			}
		}
	}
	if n := names(t, dir); len(n) > 3 {
		t.Errorf("left behind: %v", n)
	}
}

// TestCanceledWriteLeavesNothing: a write whose context is done mid-way
// fails with the context's error, removes its temporary file and keeps the
// old file; RemovePending removes the temporary file of a write under way.
func TestCanceledWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.html")
	os.WriteFile(path, []byte("old"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	err := WriteContext(ctx, path, func(w io.Writer) error {
		for i := 0; ; i++ {
			if i == 1000 {
				cancel()
			}
			if _, err := io.WriteString(w, strings.Repeat("x", 1000)); err != nil {
				return err
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %d bytes, want the old", len(b))
	}
	err = Write(path, func(w io.Writer) error {
		if n := names(t, dir); len(n) != 2 {
			t.Errorf("during a write: %v, want the file and a temporary one", n)
		}
		RemovePending()
		if n := names(t, dir); len(n) != 1 {
			t.Errorf("after RemovePending: %v", n)
		}
		return nil
	})
	if err == nil {
		t.Errorf("a write whose temporary file was removed succeeded")
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("folder holds %v, want only r.html", n)
	}
}
