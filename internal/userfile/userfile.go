// Package userfile is the one home for reading a file the user names (a
// result file, a spec file, a kernel source, an include): it refuses what is
// not a regular file (a directory, a device, a FIFO, a socket) before reading
// it, never blocks on opening, and reads no more than the limit the file's
// format sets, with one line naming the file, the limit and the fix past it.
package userfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/clmeter/clmeter/fail"
)

// MiB is a mebibyte, the unit limits are written in.
const MiB = 1 << 20

// A Limit is what a kind of file is called in messages and the most it may
// hold.
type Limit struct {
	// What names the kind of file: "result file", "spec file".
	What string
	// Bytes is the most the file may hold.
	Bytes int64
	// Hint, when set, ends the message of a file past the limit: what to do.
	Hint string
}

// Read reads the regular file at path whole, or fails with one line: when it
// is not a regular file (checked before it is opened, and again on the file
// opened, which is opened without blocking) or holds more than l.Bytes. A
// file that is not there or cannot be read gives the os error, which names
// the path. The errors of a special file or a file past the limit are of kind
// fail.Usage.
func Read(path string, l Limit) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, st, l); err != nil {
		return nil, err
	}
	// O_NONBLOCK: a FIFO put in the file's place since the Stat opens at
	// once (and is refused below) instead of waiting for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(path, st, l); err != nil {
		return nil, err
	}
	if st.Size() > l.Bytes {
		return nil, tooLarge(path, l)
	}
	// The file may grow while it is read: read one byte past the limit to
	// tell.
	b, err := io.ReadAll(io.LimitReader(f, l.Bytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(b)) > l.Bytes {
		return nil, tooLarge(path, l)
	}
	return b, nil
}

// Check tells, without opening it, whether the file at path could be read
// with l: it is there, regular and within the limit.
func Check(path string, l Limit) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := regular(path, st, l); err != nil {
		return err
	}
	if st.Size() > l.Bytes {
		return tooLarge(path, l)
	}
	return nil
}

// regular refuses a file that is not a regular one.
func regular(path string, st fs.FileInfo, l Limit) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return fail.Usagef("%s is %s, not a regular file: a %s is read from a regular file", path, KindOf(st.Mode()), l.What)
}

// tooLarge is the error of a file past its limit.
func tooLarge(path string, l Limit) error {
	msg := fmt.Sprintf("%s is larger than the %s limit for a %s", path, Size(l.Bytes), l.What)
	if l.Hint != "" {
		msg += " (" + l.Hint + ")"
	}
	return fail.Usagef("%s", msg)
}

// Size writes a limit in MiB (or KiB or bytes where it is smaller).
func Size(n int64) string {
	switch {
	case n >= MiB && n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	case n >= 1024 && n%1024 == 0:
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// KindOf names what a file of mode m is, with its article: "a directory", "a
// character device".
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}
