// Package devpool runs one worker per device at once: the devices that have
// a chip of their own (GPUs, accelerators) together, at most Parallel at a
// time, and the devices that share the host's cores (CPU implementations such
// as PoCL or llvmpipe, which use every core) alone, one after another, after
// the others, so that no figure of one device is taken while another device
// loads the host. A worker's failure is its own: the others run on.
package devpool

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// A Task is one device's work as the pool sees it.
type Task struct {
	// Label names the device in messages ("0:1 NVIDIA H200").
	Label string
	// Alone marks a device that uses the host's cores (a CPU device): it runs
	// with no other worker running.
	Alone bool
}

// Options bound the pool.
type Options struct {
	// Parallel is the most workers that run at once; zero or less: every
	// device that may share the machine. One runs the devices one after
	// another (the control run: a device slow only when all run at once
	// points at a shared resource).
	Parallel int
	// Started, when set, is told each task's index as its worker starts,
	// and Ended as it ends with its error (nil when it finished).
	Started func(i int)
	Ended   func(i int, err error)
}

// A PanicError is a worker's panic, caught so that one device's crash ends
// only its own worker.
type PanicError struct {
	Label string
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%s: internal error: %v (please report it with 'clmeter --version')", e.Label, e.Value)
}

// Order returns the order the pool starts tasks in: those that may share the
// machine first, in their order, then those that run alone.
func Order(tasks []Task) []int {
	var shared, alone []int
	for i, t := range tasks {
		if t.Alone {
			alone = append(alone, i)
		} else {
			shared = append(shared, i)
		}
	}
	return append(shared, alone...)
}

// Run runs work once per task and returns each task's error by index. Tasks
// that may share the machine run at once (at most o.Parallel); then each task
// marked Alone runs by itself. After ctx is canceled no new worker starts
// (its error is ctx's); running workers are expected to return on their
// own, with what they finished kept by the caller.
func Run(ctx context.Context, tasks []Task, o Options, work func(ctx context.Context, i int) error) []error {
	errs := make([]error, len(tasks))
	limit := o.Parallel
	if limit <= 0 {
		limit = len(tasks)
	}
	one := func(i int) {
		if o.Started != nil {
			o.Started(i)
		}
		errs[i] = protect(tasks[i].Label, func() error { return work(ctx, i) })
		if o.Ended != nil {
			o.Ended(i, errs[i])
		}
	}
	var shared, alone []int
	for _, i := range Order(tasks) {
		if tasks[i].Alone {
			alone = append(alone, i)
		} else {
			shared = append(shared, i)
		}
	}
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for _, i := range shared {
		if !acquire(ctx, sem) {
			errs[i] = ctx.Err()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			one(i)
		}()
	}
	wg.Wait()
	for _, i := range alone {
		if err := ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		one(i)
	}
	return errs
}

// acquire takes a slot of sem, false when ctx ends first.
func acquire(ctx context.Context, sem chan struct{}) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// protect runs f, turning a panic into a *PanicError.
func protect(label string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Label: label, Value: v, Stack: debug.Stack()}
		}
	}()
	return f()
}
