package runner

import (
	"context"
	"io"
	"sync"

	"github.com/clmeter/clmeter/results"
)

// A record is what a measuring command keeps of its benchmarks, the one
// skeleton that run, suite and compare --interleave share: the benchmarks in
// the order they finished, the result file written benchmark by benchmark
// (made at the first one kept, or at once with create, so that Ctrl-C keeps
// what finished), its final order (keep), the store upload (save) and the
// count of benchmarks that failed validation. Its methods are safe for the
// workers of several devices at once.
type record struct {
	mu sync.Mutex
	// path is the result file's path ("" for none), file its header.
	path    string
	file    results.File
	w       *results.Writer
	done    []results.Benchmark
	invalid int
	// hold, while set, keeps the file unmade (a suite's --filter before
	// its first match): add keeps the benchmarks, the file comes with the
	// first add after hold is cleared.
	hold bool
}

// newRecord returns the record of a command writing to out, placed in
// fleet's run.
func newRecord(out OutputOptions, fleet FleetOptions) *record {
	f := results.NewFile(out.Tool, out.Command)
	f.Fleet = fleet.Place
	return &record{path: out.Output, file: f}
}

// create makes the result file now, empty, so that a path that cannot be
// written fails before anything is measured.
func (r *record) create() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.open()
}

// open makes the file with what was kept so far, when a path is set and it
// is not made yet (r.mu held).
func (r *record) open() error {
	if r.path == "" || r.w != nil {
		return nil
	}
	f := r.file
	f.Benchmarks = r.done
	w, err := results.Create(r.path, f)
	r.w = w
	return err
}

// release clears hold: the next add makes the file.
func (r *record) release() {
	r.mu.Lock()
	r.hold = false
	r.mu.Unlock()
}

// add keeps bs, counts those that failed validation, and appends them to
// the result file (made now, with every benchmark kept so far, unless held).
func (r *record) add(bs ...results.Benchmark) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range bs {
		if failedValidation(b) {
			r.invalid++
		}
	}
	if r.w != nil {
		r.done = append(r.done, bs...)
		for _, b := range bs {
			if err := r.w.Append(b); err != nil {
				return err
			}
		}
		return nil
	}
	r.done = append(r.done, bs...)
	if r.hold {
		return nil
	}
	return r.open()
}

// failedValidation reports whether b's output failed its check: marked so
// (results.Benchmark.FailValidation) or measured invalid.
func failedValidation(b results.Benchmark) bool {
	return b.Invalid() || b.Measurement != nil && b.Measurement.Valid != nil && !*b.Measurement.Valid
}

// keep makes bs the record's benchmarks, in their final order (a run on
// several devices keeps them by device), rewriting the result file; the
// file is made now if nothing made it. It returns the first error.
func (r *record) keep(bs []results.Benchmark) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = bs
	r.file.Benchmarks = bs
	if r.path == "" {
		return nil
	}
	if r.w == nil {
		return r.open()
	}
	return r.w.Replace(bs)
}

// finished returns the benchmarks kept, and the file with them.
func (r *record) finished() ([]results.Benchmark, results.File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.file
	f.Benchmarks = r.done
	return r.done, f
}

// save puts the record into the store of st (nothing when none), trying
// again for retry while the server does not answer.
func (r *record) save(ctx context.Context, st StoreOptions, retry Backoff, stderr io.Writer) error {
	_, f := r.finished()
	return saveToStore(ctx, st.Store, st.Labels, r.path, f, stderr, retry)
}

// close closes the result file, setting *err to the close's error when it
// is nil.
func (r *record) close(err *error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.w.CloseInto(err)
}
