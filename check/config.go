package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/target"
)

// DefaultSize is the problem size N that check uses when none is given, for
// built-ins and for FILE.cl expressions over N: Oclgrind simulates every
// work-item one by one (about 2 µs each for a small kernel, many times that
// with race detection), so the sizes that suit a measurement take minutes.
const DefaultSize = 1024

// A Config is one configuration to check, as the parent hands it to its child
// process (JSON): a target with the user's flags, which the child resolves
// again through package target, at one size (a built-in) or one combination
// of axis values.
type Config struct {
	// Label names the configuration for people: "saxpy n=1024",
	// "examples/bugs/oob.cl N=256".
	Label string `json:"label"`
	// Target is what the user gave: a built-in's name, FILE.cl or FILE.yaml;
	// Flags the kernel flags.
	Target string       `json:"target"`
	Flags  target.Flags `json:"flags"`
	// N is a built-in's size.
	N int64 `json:"n,omitempty"`
	// Names and Values are the axis values of a kernel description's
	// configuration.
	Names  []string `json:"names,omitempty"`
	Values []int64  `json:"values,omitempty"`
}

// Plan turns targets into the configurations to check, with no device,
// resolving each through package target with check's own size DefaultSize: a
// built-in at each size; a FILE.cl with flags at each size N; a spec file (or
// a FILE.cl given without flags that has a FILE.yaml beside it) at the
// smallest value of each axis the flags did not set, or at every combination
// when all is set. The notes say what was chosen for the user.
func Plan(targets []string, flags target.Flags, all bool) (cfgs []Config, notes []string, err error) {
	if len(targets) == 0 {
		return nil, nil, fail.Usagef("'clmeter check' takes one or more targets: a built-in (%s), a FILE.cl or a FILE.yaml", strings.Join(clkernels.Names(), ", "))
	}
	defaulted, reduced := false, false
	for _, name := range targets {
		t, err := target.Resolve(name, flags, target.Defaults{N: DefaultSize})
		if err != nil {
			return nil, nil, err
		}
		defaulted = defaulted || t.DefaultedN
		switch {
		case t.IsBuiltin:
			for _, n := range t.Sizes {
				cfgs = append(cfgs, Config{Label: fmt.Sprintf("%s n=%d", t.Builtin.Name, n), Target: name, Flags: flags, N: n})
			}
		default:
			if t.SpecFile != "" {
				reduced = reduceAxes(t, all) || reduced
			}
			for _, in := range t.Kernel.Instances() {
				cfgs = append(cfgs, Config{Label: t.Label(in), Target: name, Flags: flags, Names: in.Names, Values: in.Values})
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

// reduceAxes keeps the smallest value of each axis of a spec file's kernel
// that the flags did not set, unless all; it says whether any axis lost values.
func reduceAxes(t *target.Target, all bool) bool {
	if all {
		return false
	}
	reduced := false
	for i, ax := range t.Kernel.Axes {
		if slices.Contains(t.Overridden, ax.Name) {
			continue
		}
		vs := slices.Clone(ax.Values)
		slices.Sort(vs)
		if len(vs) > 1 {
			reduced = true
		}
		t.Kernel.Axes[i].Values = vs[:1]
	}
	return reduced
}

// instance rebuilds a configuration's axis values as a spec.Instance.
func (c Config) instance() spec.Instance {
	in := spec.Instance{Names: c.Names, Values: c.Values, Vars: spec.Vars{}}
	for i, n := range c.Names {
		in.Vars[n] = c.Values[i]
	}
	return in
}
