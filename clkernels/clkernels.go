// Package clkernels holds clmeter's built-in OpenCL C kernels (embedded with
// go:embed), their benchmark definitions (arguments, sizes, bytes and operations
// per launch), CPU references that validate their output, and the suites that
// 'clmeter suite' runs: device peaks, streams, launch overhead, transfers and
// experiments.
package clkernels

import (
	"context"
	"embed"
	"fmt"
	"sort"

	"github.com/clmeter/clmeter/runtime"
)

//go:embed cl/*.cl
var sources embed.FS

// source returns the embedded program file as a runtime.Source named
// "builtin:FILE".
func source(file string) runtime.Source {
	b, err := sources.ReadFile("cl/" + file)
	if err != nil {
		panic("clkernels: missing embedded source " + file) // a build mistake, caught by the tests
	}
	return runtime.Source{Name: "builtin:" + file, Text: string(b)}
}

// Source returns the OpenCL C text of an embedded program file ("stream.cl").
func Source(file string) (runtime.Source, error) {
	b, err := sources.ReadFile("cl/" + file)
	if err != nil {
		return runtime.Source{}, fmt.Errorf("clkernels: no built-in source %q", file)
	}
	return runtime.Source{Name: "builtin:" + file, Text: string(b)}, nil
}

// A Builtin is a named built-in kernel benchmark that 'clmeter run' can launch
// by name: it makes a runtime.KernelBenchmark for a device and a problem size,
// with inputs filled from a fixed seed and a Check against a CPU reference.
type Builtin struct {
	// Name is what 'clmeter run NAME' takes ("saxpy", "copy").
	Name string
	// Description says in one line what the kernel does and what it measures.
	Description string
	// Type is the element type: "float", "double", "int".
	Type string
	// make builds the benchmark; n is already checked positive.
	make func(dev *runtime.Device, n int64) (*runtime.KernelBenchmark, error)
	// defaultN is the default size for a device.
	defaultN func(ctx context.Context, dev *runtime.Device) (int64, error)
}

// Make returns the benchmark of this built-in on dev over n elements. It fails,
// before anything is allocated, when n is not positive, when the device lacks a
// feature the kernel needs (fp64) or when the buffers would not fit the device
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_GLOBAL_MEM_SIZE).
func (b Builtin) Make(dev *runtime.Device, n int64) (*runtime.KernelBenchmark, error) {
	if n <= 0 {
		return nil, fmt.Errorf("%s: size must be a positive number of elements, got %d", b.Name, n)
	}
	if dev == nil {
		return nil, fmt.Errorf("%s: no device", b.Name)
	}
	return b.make(dev, n)
}

// DefaultSize is the size in elements this built-in uses on dev when none is
// given: for the stream kernels, arrays of half the working set at which
// memory bandwidth plateaus on dev (WorkingSet, measured once a process), so
// that their figures are memory's, not a cache's; 2^20 elements otherwise.
func (b Builtin) DefaultSize(ctx context.Context, dev *runtime.Device) (int64, error) {
	if b.defaultN != nil {
		return b.defaultN(ctx, dev)
	}
	return 1 << 20, nil
}

var builtins = map[string]Builtin{}

func registerBuiltin(b Builtin) {
	if _, dup := builtins[b.Name]; dup {
		panic("clkernels: duplicate built-in " + b.Name)
	}
	builtins[b.Name] = b
}

// Lookup returns the built-in kernel benchmark of that name.
func Lookup(name string) (Builtin, bool) {
	b, ok := builtins[name]
	return b, ok
}

// Names returns the names of every built-in, sorted.
func Names() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
