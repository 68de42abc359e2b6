package spec

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/runtime"
)

// A Kernel describes a user's kernel run before its axes are expanded: where the
// source is, which kernel, build options, arguments, sizes and throughput
// expressions. The command line and spec files both produce one.
type Kernel struct {
	// SourcePath is the .cl file; Source its text.
	SourcePath string
	Source     string
	// Kernel is the kernel function's name.
	Kernel string
	// Options are the build options, -D and -I included.
	Options string
	Args    []ArgSpec
	// Global and Local are comma-separated expressions ("N,N"; Local "" lets the
	// driver pick).
	Global, Local string
	// Bytes and Flops are expressions for bytes moved and floating-point
	// operations per launch ("" when unknown).
	Bytes, Flops string
	// Axes are swept: every combination of their values is one benchmark.
	Axes []Axis
	// Expect checks output buffers after one launch.
	Expect []Expect
	// MaxConfigs is the most configurations (the product of the axes'
	// value counts) Check accepts; 0 is DefaultMaxConfigs.
	MaxConfigs int64
}

// An Axis is a named value swept over a list.
type Axis struct {
	Name   string
	Values []int64
}

// Expect is an expected-output check on one output buffer argument.
type Expect struct {
	// Arg is the argument's index.
	Arg int
	// Value, when set, is what every element must equal: a number or an
	// expression over the axes (N*2).
	Value string
	// File, when set, holds the expected bytes of the whole buffer (raw, in the
	// element type) and Path is where it came from.
	File []byte
	Path string
	// Tolerance is the largest relative error allowed for floating-point
	// elements (default 1e-5 for float, 1e-12 for double, 1e-3 for half).
	Tolerance float64
}

// An Instance is one combination of axis values.
type Instance struct {
	// Names and Values are the axis values in axis order.
	Names  []string
	Values []int64
	Vars   Vars
}

// Label writes the instance's values as N=1024,M=2.
func (in Instance) Label() string {
	var parts []string
	for i, n := range in.Names {
		parts = append(parts, fmt.Sprintf("%s=%d", n, in.Values[i]))
	}
	return strings.Join(parts, ",")
}

// Instances returns every combination of the axes' values (one instance with no
// values when there are no axes), the first axis varying slowest. It holds
// them all: Check first refuses more than MaxConfigs.
func (k *Kernel) Instances() []Instance {
	out := []Instance{{Vars: Vars{}}}
	for _, ax := range k.Axes {
		var next []Instance
		for _, in := range out {
			for _, v := range ax.Values {
				vars := Vars{}
				for n, x := range in.Vars {
					vars[n] = x
				}
				vars[ax.Name] = v
				next = append(next, Instance{
					Names:  append(append([]string{}, in.Names...), ax.Name),
					Values: append(append([]int64{}, in.Values...), v),
					Vars:   vars,
				})
			}
		}
		out = next
	}
	return out
}

// Check validates the description without a device: every expression evaluates
// for every instance, the argument list is not empty, checks name outputs.
func (k *Kernel) Check() error {
	if k.Kernel == "" {
		return fmt.Errorf("%s: name the kernel to run with --kernel (or kernel: in a spec file)", k.SourcePath)
	}
	if k.Global == "" {
		return fmt.Errorf("kernel %s: give the global size with --global (e.g. --global 1Mi or 4096,4096)", k.Kernel)
	}
	if err := k.checkConfigs(); err != nil {
		return err
	}
	for _, in := range k.Instances() {
		if _, err := k.resolve(in); err != nil {
			return err
		}
	}
	for _, e := range k.Expect {
		if e.Arg < 0 || e.Arg >= len(k.Args) || k.Args[e.Arg].Kind != KindBuffer {
			return fmt.Errorf("expect: argument %d is not a buffer argument", e.Arg)
		}
		if !k.Args[e.Arg].Out {
			return fmt.Errorf("expect: argument %d (%s) is not marked :out", e.Arg, k.Args[e.Arg].Text)
		}
	}
	return nil
}

type resolved struct {
	global, local []int
	args          []runtime.Arg
	bytes, flops  int64
	options       string
}

var axisRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// ExpandOptions replaces $NAME and ${NAME} in build options by the axis values
// of vars (-DTILE=$T with T=16 gives -DTILE=16), so that a sweep or a tuning
// search can vary -D values. A name that is not an axis is an error.
func ExpandOptions(options string, vars Vars) (string, error) {
	var bad string
	out := axisRef.ReplaceAllStringFunc(options, func(m string) string {
		sub := axisRef.FindStringSubmatch(m)
		name := sub[1] + sub[2]
		v, ok := vars[name]
		if !ok {
			if bad == "" {
				bad = name
			}
			return m
		}
		return strconv.FormatInt(v, 10)
	})
	if bad != "" {
		return "", fmt.Errorf("build options %q name $%s, which is not an axis", options, bad)
	}
	return out, nil
}

func (k *Kernel) resolve(in Instance) (*resolved, error) {
	r := &resolved{}
	var err error
	where := ""
	if len(in.Names) > 0 {
		where = " (" + in.Label() + ")"
	}
	if r.options, err = ExpandOptions(k.Options, in.Vars); err != nil {
		return nil, fmt.Errorf("%w%s", err, where)
	}
	if r.global, err = sizes(k.Global, in.Vars, "global"); err != nil {
		return nil, fmt.Errorf("%w%s", err, where)
	}
	if k.Local != "" {
		if r.local, err = sizes(k.Local, in.Vars, "local"); err != nil {
			return nil, fmt.Errorf("%w%s", err, where)
		}
		if len(r.local) != len(r.global) {
			return nil, fmt.Errorf("local size %v has %d dimensions, global size %v has %d%s", r.local, len(r.local), r.global, len(r.global), where)
		}
		for d := range r.global {
			if r.global[d]%r.local[d] != 0 {
				return nil, fmt.Errorf("global size %d is not a multiple of local size %d in dimension %d%s: round the global size up to a multiple", r.global[d], r.local[d], d, where)
			}
		}
	}
	for i, a := range k.Args {
		ra, err := a.Resolve(i, in.Vars)
		if err != nil {
			return nil, fmt.Errorf("%w%s", err, where)
		}
		r.args = append(r.args, ra)
	}
	if k.Bytes != "" {
		if r.bytes, err = Eval(k.Bytes, in.Vars); err != nil {
			return nil, fmt.Errorf("bytes: %w%s", err, where)
		}
	}
	if k.Flops != "" {
		if r.flops, err = Eval(k.Flops, in.Vars); err != nil {
			return nil, fmt.Errorf("flops: %w%s", err, where)
		}
	}
	return r, nil
}

func sizes(s string, vars Vars, what string) ([]int, error) {
	vs, err := ParseList(s, vars)
	if err != nil {
		return nil, fmt.Errorf("%s size: %w", what, err)
	}
	if len(vs) < 1 || len(vs) > 3 {
		return nil, fmt.Errorf("%s size %q: 1 to 3 dimensions", what, s)
	}
	out := make([]int, len(vs))
	for i, v := range vs {
		if v <= 0 {
			return nil, fmt.Errorf("%s size %q: every dimension must be positive, got %d", what, s, v)
		}
		out[i] = int(v)
	}
	return out, nil
}

// Benchmark makes the KernelBenchmark of one instance on a device.
func (k *Kernel) Benchmark(dev *runtime.Device, in Instance) (*runtime.KernelBenchmark, error) {
	r, err := k.resolve(in)
	if err != nil {
		return nil, err
	}
	// OpenCL compilers look up #include "x.h" from the working folder, not the
	// source's: the source's folder is added as the last -I.
	opts := r.options
	if dir, err := filepath.Abs(filepath.Dir(k.SourcePath)); err == nil && k.SourcePath != "" {
		opts = strings.TrimSpace(opts + " -I" + dir)
	}
	b := &runtime.KernelBenchmark{
		Device:         dev,
		Source:         runtime.Source{Name: k.SourcePath, Text: k.Source, Dir: filepath.Dir(k.SourcePath)},
		Options:        opts,
		Kernel:         k.Kernel,
		Args:           r.args,
		Global:         r.global,
		Local:          r.local,
		BytesPerLaunch: r.bytes,
		OpsPerLaunch:   r.flops,
		CheckArgTypes:  true,
	}
	if r.flops > 0 {
		b.OpsUnit = "FLOP"
	}
	if len(k.Expect) > 0 {
		expects := k.Expect
		args := k.Args
		vars := in.Vars
		b.Check = func(_, out map[int][]byte) error {
			for _, e := range expects {
				if err := e.check(args[e.Arg], out[e.Arg], vars); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return b, nil
}

func (e Expect) check(a ArgSpec, got []byte, vars Vars) error {
	t := a.Type
	tol := e.Tolerance
	if tol == 0 {
		switch t.Scalar {
		case "float":
			tol = 1e-5
		case "double":
			tol = 1e-12
		case "half":
			tol = 1e-3
		}
	}
	if e.File != nil {
		if len(e.File) != len(got) {
			return fmt.Errorf("argument %d: %s holds %d bytes, the buffer %d", e.Arg, e.Path, len(e.File), len(got))
		}
		if !t.IsFloat() {
			if i := firstDiff(e.File, got); i >= 0 {
				return fmt.Errorf("argument %d differs from %s at byte %d", e.Arg, e.Path, i)
			}
			return nil
		}
	}
	var want float64
	if e.File == nil {
		v, err := value(e.Value, vars)
		if err != nil {
			return fmt.Errorf("expect value for argument %d: %w", e.Arg, err)
		}
		want = v
	}
	es := t.size
	for i := 0; i+es <= len(got); i += es {
		g := t.scalarAt(got[i:])
		if e.File != nil {
			want = t.scalarAt(e.File[i:])
		}
		if !close(g, want, tol, t.IsFloat()) {
			return fmt.Errorf("argument %d element %d = %s, want %s (tolerance %g)", e.Arg, i/es, fmtVal(g), fmtVal(want), tol)
		}
	}
	return nil
}

func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

func close(got, want, tol float64, float bool) bool {
	if !float {
		return got == want
	}
	return RelTolerance(tol).Within(got, want)
}

func fmtVal(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// ReadSource reads a .cl file for a Kernel: a regular file of at most
// MaxSourceBytes.
func ReadSource(path string) (string, error) {
	b, err := userfile.Read(path, SourceLimit())
	if err != nil {
		return "", fmt.Errorf("reading kernel source: %w", err)
	}
	return string(b), nil
}

// BuildOptions joins -D and -I flags and free options into one option string.
// Include folders are made absolute so that the build does not depend on the
// working folder.
func BuildOptions(defines, includes []string, options string) string {
	var parts []string
	for _, d := range defines {
		parts = append(parts, "-D"+d)
	}
	for _, inc := range includes {
		if abs, err := filepath.Abs(inc); err == nil {
			inc = abs
		}
		parts = append(parts, "-I"+inc)
	}
	if options = strings.TrimSpace(options); options != "" {
		parts = append(parts, options)
	}
	return strings.Join(parts, " ")
}
