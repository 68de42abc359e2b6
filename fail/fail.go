// Package fail names the kinds of failure a clmeter package can report, so that
// packages that know nothing of the command line still let it choose the exit
// status: bad usage, a result that failed validation, no usable device, a
// regression, an interruption, a device slower than its peers. cmd/clmeter
// maps each Kind to one exit status.
package fail

import (
	"errors"
	"fmt"
)

// A Kind is what went wrong, as far as the caller's exit status is concerned.
type Kind int

const (
	// Other is any failure without a more specific kind.
	Other Kind = iota
	// Usage is bad input from the user: flags, arguments, files they named.
	Usage
	// Invalid is a result that failed its check (a CPU reference, a checker finding).
	Invalid
	// NoDevice is no usable OpenCL device or library.
	NoDevice
	// Regression is a regression found where the user asked to fail on one.
	Regression
	// Interrupted is a run stopped by Ctrl-C or SIGTERM; finished results were kept.
	Interrupted
	// Outlier is a device slower than its peers of the same model, found
	// where the user asked to fail on one (suite --fail-on-outlier).
	Outlier
)

// An Error is an error with a Kind.
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// With attaches kind to err (nil stays nil).
func With(kind Kind, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: kind, Err: err}
}

// Usagef is a Usage error formatted like fmt.Errorf.
func Usagef(format string, a ...any) error { return With(Usage, fmt.Errorf(format, a...)) }

// KindOf returns the kind of the outermost Error in err's chain, Other when none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Other
}
