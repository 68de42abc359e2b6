package userfile

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clmeter/clmeter/fail"
)

// TestRead: a regular file within the limit is read whole; one past it, a
// folder, a device, a FIFO (with no writer: opening it for reading would block)
// and a socket are refused with one usage line naming the file, before they
// are read.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	l := Limit{What: "test file", Bytes: 10, Hint: "make it smaller"}
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("0123456789"), 0o644)
	if b, err := Read(ok, l); err != nil || string(b) != "0123456789" {
		t.Errorf("Read(%s) = %q, %v", ok, b, err)
	}
	if err := Check(ok, l); err != nil {
		t.Errorf("Check(%s) = %v", ok, err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte("0123456789A"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	link := filepath.Join(dir, "link")
	os.Symlink("/dev/zero", link)
	for _, tc := range []struct{ path, want string }{
		{big, big + " is larger than the 10 bytes limit for a test file (make it smaller)"},
		{dir, dir + " is a folder, not a regular file: a test file is read from a regular file"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
		{"/dev/urandom", "/dev/urandom is a character device"},
		{link, link + " is a character device"},
		{fifo, fifo + " is a FIFO (named pipe), not a regular file"},
		{sock, sock + " is a socket, not a regular file"},
	} {
		for name, read := range map[string]func() error{
			"Read":  func() error { _, err := Read(tc.path, l); return err },
			"Check": func() error { return Check(tc.path, l) },
		} {
			err := read()
			if err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) || fail.KindOf(err) != fail.Usage {
				t.Errorf("%s(%s) = %v (kind %v), want a usage error %q", name, tc.path, err, fail.KindOf(err), tc.want)
			}
		}
	}
	if _, err := Read(filepath.Join(dir, "missing"), l); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want the os error", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{256 * MiB: "256 MiB", 16 * 1024: "16 KiB", 1000: "1000 bytes", MiB + 1: "1048577 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
