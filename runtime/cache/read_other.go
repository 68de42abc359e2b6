//go:build !linux

package cache

import (
	"io"
	"io/fs"
	"os"
)

// readEntry reads an entry file whole: one open, one fstat (its size and use
// time), one read.
func readEntry(path string) (entryFile, error) {
	e := entryFile{path: path}
	f, err := os.Open(path)
	if err != nil {
		return e, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return e, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxEntryBytes {
		return e, &fs.PathError{Op: "read", Path: path, Err: errNotEntry}
	}
	// Entries are renamed into place whole: the open file does not change.
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return e, err
	}
	e.b, e.used = b, st.ModTime()
	return e, nil
}
