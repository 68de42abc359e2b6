package check

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/runtime/spec"
)

// DefaultSize is the problem size N that check uses when none is given, for
// built-ins and for FILE.cl expressions over N: Oclgrind simulates every
// work-item one by one (about 2 µs each for a small kernel, many times that
// with race detection), so the sizes that suit a measurement take minutes.
const DefaultSize = 1024

// KernelFlags are run's flags for a FILE.cl target: the kernel, sizes,
// arguments and build options (see 'clmeter run --help').
type KernelFlags struct {
	Kernel, Global, Local string
	Args                  []string
	Defines, Includes     []string
	BuildOptions          string
}

func (k KernelFlags) empty() bool {
	return k.Kernel == "" && k.Global == "" && k.Local == "" && len(k.Args) == 0 &&
		len(k.Defines) == 0 && len(k.Includes) == 0 && k.BuildOptions == ""
}

// A Config is one configuration to check, as the parent hands it to its child
// process (JSON): a built-in at a size, a FILE.cl with run's flags, or a spec
// file, at one combination of axis values.
type Config struct {
	// Label names the configuration for people: "saxpy n=1024",
	// "examples/bugs/oob.cl N=256".
	Label string `json:"label"`
	// Target is what the user gave: a built-in's name, FILE.cl or FILE.yaml.
	Target string `json:"target"`

	Builtin string `json:"builtin,omitempty"`
	N       int64  `json:"n,omitempty"`

	// SpecFile is a spec file; Source a FILE.cl with Kernel, Global, Local,
	// Options and Args from the flags.
	SpecFile string   `json:"spec_file,omitempty"`
	Source   string   `json:"source,omitempty"`
	Kernel   string   `json:"kernel,omitempty"`
	Global   string   `json:"global,omitempty"`
	Local    string   `json:"local,omitempty"`
	Options  string   `json:"options,omitempty"`
	Args     []string `json:"args,omitempty"`
	// Names and Values are the axis values of this configuration.
	Names  []string `json:"names,omitempty"`
	Values []int64  `json:"values,omitempty"`
}

// Plan turns targets into the configurations to check, with no device: a
// built-in at each size (DefaultSize when sizes is empty); a FILE.cl with
// flags at each size N; a FILE.yaml (or a FILE.cl given without flags that
// has a FILE.yaml beside it) at the smallest value of each axis, or at every
// combination when all is set, N taking sizes when given. The notes say what
// was chosen for the user.
func Plan(targets []string, flags KernelFlags, sizes []int64, all bool) (cfgs []Config, notes []string, err error) {
	if len(targets) == 0 {
		return nil, nil, errors.New("'clmeter check' takes one or more targets: a built-in (" + strings.Join(clkernels.Names(), ", ") + "), a FILE.cl or a FILE.yaml")
	}
	defaulted, reduced := false, false
	for _, t := range targets {
		ext := strings.ToLower(filepath.Ext(t))
		switch {
		case ext == ".cl" && flags.empty():
			yaml := strings.TrimSuffix(t, filepath.Ext(t)) + ".yaml"
			if _, err := os.Stat(yaml); err != nil {
				return nil, nil, fmt.Errorf("%s: give its kernel and arguments (--kernel, --global, --arg ...), as for 'clmeter run', or put a spec file %s beside it", t, filepath.Base(yaml))
			}
			k, err := spec.LoadFile(yaml)
			if err != nil {
				return nil, nil, err
			}
			if !sameFile(k.SourcePath, t) {
				return nil, nil, fmt.Errorf("%s names source %s, not %s: check the spec file itself, or give %s's flags", yaml, k.SourcePath, t, t)
			}
			cs, err := specConfigs(t, yaml, k, sizes, all, &reduced)
			if err != nil {
				return nil, nil, err
			}
			cfgs = append(cfgs, cs...)
		case ext == ".yaml" || ext == ".yml":
			if !flags.empty() {
				return nil, nil, fmt.Errorf("%s: a spec file holds the kernel, sizes and arguments: drop --kernel, --global, --arg and the build flags", t)
			}
			k, err := spec.LoadFile(t)
			if err != nil {
				return nil, nil, err
			}
			cs, err := specConfigs(t, t, k, sizes, all, &reduced)
			if err != nil {
				return nil, nil, err
			}
			cfgs = append(cfgs, cs...)
		case ext == ".cl":
			ns := sizes
			if len(ns) == 0 && usesN(flags) {
				ns, defaulted = []int64{DefaultSize}, true
			}
			cs, err := sourceConfigs(t, flags, ns)
			if err != nil {
				return nil, nil, err
			}
			cfgs = append(cfgs, cs...)
		default:
			b, ok := clkernels.Lookup(t)
			if !ok {
				if _, err := os.Stat(t); err == nil {
					return nil, nil, fmt.Errorf("%s: a kernel file ends in .cl and a spec file in .yaml", t)
				}
				return nil, nil, fmt.Errorf("unknown kernel %q: the built-ins are %s; or give a FILE.cl or FILE.yaml", t, strings.Join(clkernels.Names(), ", "))
			}
			if !flags.empty() {
				return nil, nil, fmt.Errorf("--kernel, --global, --local, --arg and build flags are for your own kernels (FILE.cl); built-in %s sets its own", t)
			}
			ns := sizes
			if len(ns) == 0 {
				ns, defaulted = []int64{DefaultSize}, true
			}
			for _, n := range ns {
				cfgs = append(cfgs, Config{Label: fmt.Sprintf("%s n=%d", b.Name, n), Target: t, Builtin: b.Name, N: n})
			}
		}
	}
	if defaulted {
		notes = append(notes, fmt.Sprintf("size N=%d: check's own default (Oclgrind simulates each work-item; --size to change)", DefaultSize))
	}
	if reduced {
		notes = append(notes, "spec files: the smallest value of each axis (--all for every combination)")
	}
	return cfgs, notes, nil
}

// sourceConfigs is a FILE.cl with run's flags, one configuration per size.
func sourceConfigs(path string, f KernelFlags, sizes []int64) ([]Config, error) {
	src, err := spec.ReadSource(path)
	if err != nil {
		return nil, err
	}
	k := &spec.Kernel{SourcePath: path, Source: src, Kernel: f.Kernel, Global: f.Global, Local: f.Local,
		Options: spec.BuildOptions(f.Defines, f.Includes, f.BuildOptions)}
	if len(sizes) > 0 {
		k.Axes = []spec.Axis{{Name: "N", Values: sizes}}
	}
	for _, a := range f.Args {
		as, err := spec.ParseArg(a)
		if err != nil {
			return nil, err
		}
		k.Args = append(k.Args, as)
	}
	if err := k.Check(); err != nil {
		return nil, err
	}
	var out []Config
	for _, in := range k.Instances() {
		out = append(out, Config{Label: strings.TrimSpace(path + " " + in.Label()), Target: path, Source: path, Kernel: k.Kernel, Global: k.Global,
			Local: k.Local, Options: k.Options, Args: f.Args, Names: in.Names, Values: in.Values})
	}
	return out, nil
}

// specConfigs is a spec file's configurations: the smallest of each axis
// unless all; axis N takes sizes when given.
func specConfigs(target, path string, k *spec.Kernel, sizes []int64, all bool, reduced *bool) ([]Config, error) {
	if len(sizes) > 0 {
		found := false
		for i := range k.Axes {
			if k.Axes[i].Name == "N" {
				k.Axes[i].Values, found = sizes, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s has no axis N for --size to set: drop --size", path)
		}
		if err := k.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if !all {
		for i := range k.Axes {
			vs := append([]int64{}, k.Axes[i].Values...)
			if len(sizes) > 0 && k.Axes[i].Name == "N" {
				continue
			}
			sort.Slice(vs, func(a, b int) bool { return vs[a] < vs[b] })
			if len(vs) > 1 {
				*reduced = true
			}
			k.Axes[i].Values = vs[:1]
		}
	}
	var out []Config
	for _, in := range k.Instances() {
		label := target
		if l := in.Label(); l != "" {
			label += " " + l
		}
		out = append(out, Config{Label: label, Target: target, SpecFile: path, Names: in.Names, Values: in.Values})
	}
	return out, nil
}

var reN = regexp.MustCompile(`\bN\b`)

// usesN says whether a FILE.cl's sizes or arguments are expressions over N.
func usesN(f KernelFlags) bool {
	return reN.MatchString(f.Global + " " + f.Local + " " + strings.Join(f.Args, " "))
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// instance rebuilds a configuration's axis values as a spec.Instance.
func (c Config) instance() spec.Instance {
	in := spec.Instance{Names: c.Names, Values: c.Values, Vars: spec.Vars{}}
	for i, n := range c.Names {
		in.Vars[n] = c.Values[i]
	}
	return in
}
