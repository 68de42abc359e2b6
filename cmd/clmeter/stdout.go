package main

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/term"
)

// outWriter passes writes to the command's stdout and keeps the first error,
// so that output lost to a full disk or a closed file is an error, not exit 0.
type outWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// failed returns the first write error, or nil. A reader that closed the
// pipe (clmeter ... | head) is not an error: it took what it wanted.
func (o *outWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if errors.Is(o.err, syscall.EPIPE) {
		return nil
	}
	return o.err
}

// watchWrites wraps stdout in an outWriter, except a terminal, which stays
// the *os.File that package table asks for its width (and which a write
// hardly fails on). The second result reports the first write error.
func watchWrites(stdout io.Writer) (io.Writer, func() error) {
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return stdout, func() error { return nil }
	}
	o := &outWriter{w: stdout}
	return o, o.failed
}
