package cache

import (
	"io"
	"io/fs"
	"syscall"
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// readEntry reads an entry file whole: one open, one fstat (its size and use
// time), one read, through raw system calls (an os.File's poller
// registration and finalizer cost a hit's read 5-15 µs in a fresh process).
func readEntry(path string) (entryFile, error) {
	e := entryFile{path: path}
	// O_NONBLOCK: a FIFO put in a shared cache folder opens at once (and is
	// refused below) instead of waiting for a writer.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return e, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return e, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > maxEntryBytes {
		return e, &fs.PathError{Op: "read", Path: path, Err: errNotEntry}
	}
	// Entries are renamed into place whole: the open file does not change.
	// The buffer's fresh pages are backed in one call, not one fault a page
	// as the read fills them: on a VM that backs guest memory on first
	// touch each fault costs far more than backing the page in one call
	// (docs/OWNCOST.md has the figures).
	b := make([]byte, st.Size)
	runtime.Populate(b)
	for n := 0; n < len(b); {
		m, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return e, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return e, &fs.PathError{Op: "read", Path: path, Err: io.ErrUnexpectedEOF}
		}
		n += m
	}
	e.b, e.used = b, time.Unix(st.Mtim.Unix())
	return e, nil
}
