// Package target resolves what a command measures, checks or tunes — a
// built-in kernel, a FILE.cl described by the kernel flags, or a FILE.yaml
// spec file — together with the command line's overrides into one checked
// kernel description, with one set of one-line errors that name the problem
// and the fix. run, check, tune, compare and trace all resolve through it.
//
// The one override rule (Rule): a spec file holds its kernel, sizes and
// arguments; --size replaces its axis N and --set NAME=VALUES any of its axes.
// A FILE.cl's axes are N (from --size) and those --axis adds; a built-in's one
// axis is its size N. --set N=VALUES is --size VALUES everywhere.
package target

import (
	"cmp"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/suggest"
	"github.com/clmeter/clmeter/runtime/spec"
)

// Rule is the override rule in a few lines, for the commands' help.
const Rule = "A spec file (FILE.yaml) holds its kernel, sizes and arguments: --size replaces its axis N\n" +
	"and --set NAME=VALUES any of its axes (--set N=... is --size). A FILE.cl given without\n" +
	"--kernel/--global/--arg uses the spec file of the same name beside it."

// Flags are a kernel description as the command line gives it beside the
// target (the kernel flags of cmd/clmeter); check hands them to its child
// process as JSON.
type Flags struct {
	// Kernel, Global, Local, Args, Defines, Includes, BuildOptions, Bytes and
	// Flops describe a FILE.cl (see runtime/spec); a built-in or a spec file
	// sets its own.
	Kernel       string   `json:"kernel,omitempty"`
	Global       string   `json:"global,omitempty"`
	Local        string   `json:"local,omitempty"`
	Args         []string `json:"args,omitempty"`
	Defines      []string `json:"defines,omitempty"`
	Includes     []string `json:"includes,omitempty"`
	BuildOptions string   `json:"options,omitempty"`
	Bytes        string   `json:"bytes,omitempty"`
	Flops        string   `json:"flops,omitempty"`
	// Sizes is the --size list ("1Mi,16Mi"): the values of axis N.
	Sizes string `json:"sizes,omitempty"`
	// Set replaces an axis's values: "T=8,16" (NAME=VALUE[,VALUE...]).
	Set []string `json:"set,omitempty"`
	// Axes add axes to a FILE.cl: "T=4,8,16" (tune's --axis).
	Axes []string `json:"axes,omitempty"`
	// MaxConfigs is the most configurations the target may have (the
	// product of its axes' value counts; --max-configs); 0 is
	// spec.DefaultMaxConfigs.
	MaxConfigs int64 `json:"max_configs,omitempty"`
}

// WithoutN is f with N left to the command's default: --size and --set N=...
// dropped (run --check checks at check's own size).
func (f Flags) WithoutN() Flags {
	f.Sizes = ""
	var set []string
	for _, s := range f.Set {
		if name, _, _ := strings.Cut(s, "="); strings.TrimSpace(name) != "N" {
			set = append(set, s)
		}
	}
	f.Set = set
	return f
}

// described names the description flags that are given, as the user typed
// them (--kernel, -D ...).
func (f Flags) described() []string {
	var out []string
	for _, d := range []struct {
		name string
		set  bool
	}{{"--kernel", f.Kernel != ""}, {"--global", f.Global != ""}, {"--local", f.Local != ""}, {"--arg", len(f.Args) > 0},
		{"-D", len(f.Defines) > 0}, {"-I", len(f.Includes) > 0}, {"--options", f.BuildOptions != ""},
		{"--bytes", f.Bytes != ""}, {"--flops", f.Flops != ""}, {"--axis", len(f.Axes) > 0}} {
		if d.set {
			out = append(out, d.name)
		}
	}
	return out
}

var reN = regexp.MustCompile(`\bN\b`)

// usesN says whether a FILE.cl's expressions use N.
func (f Flags) usesN() bool {
	return reN.MatchString(strings.Join(append([]string{f.Global, f.Local, f.Bytes, f.Flops}, f.Args...), " "))
}

// Defaults are what a command chooses where the flags say nothing.
type Defaults struct {
	// N, when positive, is the size N of a built-in, or of a FILE.cl whose
	// expressions use N, when no --size is given (check's small size). Zero
	// leaves a built-in's sizes nil (its default on each device).
	N int64
}

// A Target is a resolved target: a built-in with its sizes, or a kernel
// description (from a FILE.cl and the flags, or a spec file) with its axes
// overridden and checked without a device.
type Target struct {
	// Name is the target as given.
	Name string
	// Builtin is the built-in kernel when IsBuiltin; Sizes are its sizes N
	// (nil: its default size on each device).
	Builtin   clkernels.Builtin
	IsBuiltin bool
	Sizes     []int64
	// Kernel is the description of a FILE.cl or a spec file (nil for a
	// built-in); its Instances are what to measure.
	Kernel *spec.Kernel
	// SpecFile is the spec file Kernel was read from ("" for a FILE.cl
	// described by the flags).
	SpecFile string
	// Overridden names the axes --size and --set replaced, in axis order.
	Overridden []string
	// DefaultedN says that N is Defaults.N: no --size was given.
	DefaultedN bool
}

// Resolve turns a target (a built-in's name, a FILE.cl or a FILE.yaml) and the
// flags into a Target, or a usage error naming the problem and the fix.
func Resolve(name string, f Flags, d Defaults) (*Target, error) {
	if name == "" {
		return nil, fail.Usagef("no target: give a built-in (%s), a FILE.cl or a FILE.yaml", strings.Join(clkernels.Names(), ", "))
	}
	if f.MaxConfigs < 0 {
		return nil, fail.Usagef("--max-configs %d: give at least 1 (the default is %d)", f.MaxConfigs, spec.DefaultMaxConfigs)
	}
	ov, err := parseOverrides(f)
	if err != nil {
		return nil, err
	}
	t := &Target{Name: name}
	switch ext := strings.ToLower(filepath.Ext(name)); {
	case ext == ".yaml" || ext == ".yml":
		err = t.fromSpecFile(name, f, ov)
	case ext == ".cl" && len(f.described()) == 0:
		err = t.fromSourceBeside(name, f, ov)
	case ext == ".cl":
		err = t.fromSource(name, f, ov, d)
	default:
		err = t.fromBuiltin(name, f, ov, d)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// fromBuiltin resolves a built-in kernel: only its size N may be given.
func (t *Target) fromBuiltin(name string, f Flags, ov overrides, d Defaults) error {
	b, ok := clkernels.Lookup(name)
	if !ok {
		if _, err := os.Stat(name); err == nil {
			return fail.Usagef("%s: a kernel file ends in .cl and a spec file in .yaml", name)
		}
		if hint := suggest.DidYouMean(name, clkernels.Names()); hint != "" {
			return fail.Usagef("unknown kernel %q: %s (or give a FILE.cl or FILE.yaml)", name, hint)
		}
		return fail.Usagef("unknown kernel %q: the built-ins are %s; or give a FILE.cl or FILE.yaml", name, strings.Join(clkernels.Names(), ", "))
	}
	if given := f.described(); len(given) > 0 {
		verb := "is"
		if len(given) > 1 {
			verb = "are"
		}
		return fail.Usagef("%s %s for your own kernels (FILE.cl); built-in %s sets its own", strings.Join(given, ", "), verb, name)
	}
	if len(ov.set) > 0 {
		return fail.Usagef("--set %s: built-in %s has no axis %s (its one axis is N, its size: --size)", ov.setText[0], name, ov.set[0].Name)
	}
	if limit := cmp.Or(f.MaxConfigs, spec.DefaultMaxConfigs); int64(len(ov.sizes)) > limit {
		return spec.TooManyConfigs(big.NewInt(int64(len(ov.sizes))), "--size values", limit)
	}
	t.Builtin, t.IsBuiltin, t.Sizes = b, true, ov.sizes
	if ov.sizes != nil {
		t.Overridden = []string{"N"}
	} else if d.N > 0 {
		t.Sizes, t.DefaultedN = []int64{d.N}, true
	}
	return nil
}

// fromSpecFile resolves a spec file: its axes may be overridden, nothing else.
func (t *Target) fromSpecFile(path string, f Flags, ov overrides) error {
	if given := f.described(); len(given) > 0 {
		return fail.Usagef("%s: a spec file holds the kernel, sizes and arguments: drop %s (change an axis with --set NAME=VALUES, N with --size)", path, strings.Join(given, ", "))
	}
	k, err := spec.LoadFileUnchecked(path)
	if err != nil {
		return fail.With(fail.Usage, err)
	}
	k.MaxConfigs = f.MaxConfigs
	return t.setSpec(path, k, ov)
}

// fromSourceBeside resolves a FILE.cl given without its description through
// the spec file of the same name beside it.
func (t *Target) fromSourceBeside(path string, f Flags, ov overrides) error {
	yaml := strings.TrimSuffix(path, filepath.Ext(path)) + ".yaml"
	if _, err := os.Stat(yaml); err != nil {
		return fail.Usagef("%s: give its kernel and arguments (--kernel, --global, --arg ...) or put a spec file %s beside it", path, filepath.Base(yaml))
	}
	k, err := spec.LoadFileUnchecked(yaml)
	if err != nil {
		return fail.With(fail.Usage, err)
	}
	k.MaxConfigs = f.MaxConfigs
	if !sameFile(k.SourcePath, path) {
		return fail.Usagef("%s names source %s, not %s: give the spec file itself, or %s's --kernel, --global and --arg", yaml, k.SourcePath, path, path)
	}
	return t.setSpec(yaml, k, ov)
}

// setSpec applies the overrides to a spec file's kernel.
func (t *Target) setSpec(path string, k *spec.Kernel, ov overrides) error {
	var err error
	if t.Overridden, err = ov.apply(k, path); err != nil {
		return err
	}
	if err := k.Check(); err != nil {
		return fail.Usagef("%s: %w", path, err)
	}
	t.Kernel, t.SpecFile = k, path
	return nil
}

// fromSource resolves a FILE.cl described by the flags.
func (t *Target) fromSource(path string, f Flags, ov overrides, d Defaults) error {
	src, err := spec.ReadSource(path)
	if err != nil {
		return fail.With(fail.Usage, err)
	}
	k := &spec.Kernel{SourcePath: path, Source: src, Kernel: f.Kernel, Global: f.Global, Local: f.Local,
		Bytes: f.Bytes, Flops: f.Flops, Options: spec.BuildOptions(f.Defines, f.Includes, f.BuildOptions), MaxConfigs: f.MaxConfigs}
	for _, a := range f.Args {
		as, err := spec.ParseArg(a)
		if err != nil {
			return fail.With(fail.Usage, err)
		}
		k.Args = append(k.Args, as)
	}
	if k.Axes, err = sourceAxes(ov.sizes, f.Axes); err != nil {
		return err
	}
	if ov.sizes == nil && d.N > 0 && f.usesN() && axisIndex(k.Axes, "N") < 0 {
		k.Axes, t.DefaultedN = append([]spec.Axis{{Name: "N", Values: []int64{d.N}}}, k.Axes...), true
	}
	if ov.sizes != nil {
		t.Overridden = []string{"N"}
	}
	ov.sizes = nil // axis N is made of them already
	set, err := ov.apply(k, path)
	if err != nil {
		return err
	}
	t.Overridden = append(t.Overridden, set...)
	if err := k.Check(); err != nil {
		return fail.With(fail.Usage, err)
	}
	t.Kernel = k
	return nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// Label is what a target and an instance of its kernel are called for
// people: "examples/bugs/oob.cl N=256".
func (t *Target) Label(in spec.Instance) string {
	if l := in.Label(); l != "" {
		return t.Name + " " + l
	}
	return t.Name
}
