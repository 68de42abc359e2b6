package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/atomicfile"
)

// Encode returns f as indented JSON ending in a newline. Nil lists encode as [].
func (f *File) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	n := f.normalized()
	if err := enc.Encode(&n); err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteTo writes f to w as indented JSON (io.WriterTo).
func (f *File) WriteTo(w io.Writer) (int64, error) {
	b, err := f.Encode()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// WriteFile writes f to path atomically: a reader of path sees the old file or
// the new one, never a part.
func WriteFile(path string, f *File) error {
	return writeAtomic(path, f, nil)
}

// writeAtomic encodes f and writes it atomically; wrap, when not nil, wraps
// the temporary file's writer (tests use it to simulate a failing disk).
func writeAtomic(path string, f *File, wrap func(io.Writer) io.Writer) error {
	data, err := f.Encode()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		if wrap != nil {
			w = wrap(w)
		}
		_, err := w.Write(data)
		return err
	})
}

// A Writer keeps a result file up to date while benchmarks run: it rewrites the
// whole file atomically after each Append, so an interrupted run leaves a
// complete file with every benchmark that finished. A character device or a
// FIFO (atomicfile.IsStream) takes the file once, at Close, with every
// benchmark the Writer holds then. It is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	path   string
	file   File
	stream bool // path is written through, once, at Close
	closed bool
	// wrap, when not nil, wraps the temporary file's writer (tests).
	wrap func(io.Writer) io.Writer
}

// Create starts a result file at path with header f (its Benchmarks, if any,
// are kept) and writes it at once, so that an unwritable path fails before
// anything is measured. Schema and Version are set when empty.
func Create(path string, f File) (*Writer, error) {
	if path == "" {
		return nil, errors.New("result file: empty path")
	}
	if f.Schema == "" {
		f.Schema = SchemaName
	}
	if f.Version == 0 {
		f.Version = SchemaVersion
	}
	f.Benchmarks = append([]Benchmark{}, f.Benchmarks...)
	if err := CheckWritable(path); err != nil {
		return nil, err
	}
	w := &Writer{path: path, file: f, stream: atomicfile.IsStream(path)}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return w, nil
}

// Append adds b and rewrites the file. When the write fails, b is kept and the
// file on disk is the previous complete one; the next Append or Flush retries.
func (w *Writer) Append(b Benchmark) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.file.Benchmarks = append(w.file.Benchmarks, b)
	if w.stream {
		return nil
	}
	return writeAtomic(w.path, &w.file, w.wrap)
}

// Replace sets the file's benchmarks to bs (a suite's rows with their peak
// figures set at its end) and rewrites it (a stream waits for Close).
func (w *Writer) Replace(bs []Benchmark) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.file.Benchmarks = append([]Benchmark{}, bs...)
	if w.stream {
		return nil
	}
	return writeAtomic(w.path, &w.file, w.wrap)
}

// Flush rewrites the file with what the Writer holds (a stream waits for
// Close).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stream {
		return nil
	}
	return writeAtomic(w.path, &w.file, w.wrap)
}

// CloseInto closes w (Close) at the end of a function whose error is *err:
// a Close error is kept when *err is nil.
func (w *Writer) CloseInto(err *error) {
	if cerr := w.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}

// Close ends the Writer: a stream gets the file, once; a file has had every
// Append already. A nil Writer's Close does nothing, so that a command that
// made none may close it.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stream || w.closed {
		return nil
	}
	w.closed = true
	return writeAtomic(w.path, &w.file, w.wrap)
}

// CheckWritable fails with a usage error when path cannot take an output
// (atomicfile.Check: a missing folder or one that takes no new file, a name
// over NAME_MAX, or a folder, block device or socket at path), so that a bad
// -o is found before anything is measured. It is the one check of every
// command's -o (cmd's checkOutput) and leaves nothing behind.
func CheckWritable(path string) error {
	if err := atomicfile.Check(path); err != nil {
		return fail.Usagef("-o %v", err)
	}
	return nil
}
