package table

import "io"

// ErrWriter keeps the first error of W's writes and writes nothing after it,
// so that a renderer of many lines checks Err once at the end.
type ErrWriter struct {
	W   io.Writer
	Err error
}

func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	e.Err = err
	return n, err
}
