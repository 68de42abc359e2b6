package target

import (
	"errors"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime/spec"
)

// overrides are the parsed --size and --set: the values of axis N (nil when
// not given) and the other axes' new values.
type overrides struct {
	sizes   []int64
	set     []spec.Axis
	setText []string
}

// parseOverrides reads --size and --set; --set N=... is taken as --size.
func parseOverrides(f Flags) (overrides, error) {
	var ov overrides
	if f.Sizes != "" {
		for _, part := range strings.Split(f.Sizes, ",") {
			n, err := spec.ParseSize(strings.TrimSpace(part))
			if err != nil {
				return ov, fail.Usagef("--size: %v", err)
			}
			ov.sizes = append(ov.sizes, n)
		}
	}
	seen := map[string]bool{}
	for _, s := range f.Set {
		ax, err := parseAxis(s)
		if err != nil {
			return ov, fail.Usagef("--set %s: %v", s, err)
		}
		if seen[ax.Name] || (ax.Name == "N" && ov.sizes != nil) {
			return ov, fail.Usagef("--set %s: axis %s is given twice (--size is --set N=...): give it once", s, ax.Name)
		}
		seen[ax.Name] = true
		if ax.Name == "N" {
			ov.sizes = ax.Values
			continue
		}
		ov.set, ov.setText = append(ov.set, ax), append(ov.setText, s)
	}
	return ov, nil
}

// apply replaces the values of k's axis N by the sizes and of each --set
// axis by its values; path names k in errors. It returns the axes replaced,
// in axis order.
func (ov overrides) apply(k *spec.Kernel, path string) ([]string, error) {
	if ov.sizes != nil {
		i := axisIndex(k.Axes, "N")
		if i < 0 {
			return nil, fail.Usagef("--size: %s has no axis N to set (%s): drop --size, or change an axis with --set NAME=VALUES", path, axesText(k.Axes))
		}
		k.Axes[i].Values = ov.sizes
	}
	for j, ax := range ov.set {
		i := axisIndex(k.Axes, ax.Name)
		if i < 0 {
			return nil, fail.Usagef("--set %s: %s has no axis %s (%s)", ov.setText[j], path, ax.Name, axesText(k.Axes))
		}
		k.Axes[i].Values = ax.Values
	}
	var out []string
	for _, ax := range k.Axes {
		if (ax.Name == "N" && ov.sizes != nil) || slices.ContainsFunc(ov.set, func(s spec.Axis) bool { return s.Name == ax.Name }) {
			out = append(out, ax.Name)
		}
	}
	return out, nil
}

// sourceAxes are a FILE.cl's axes: N from --size (first), then each --axis.
func sourceAxes(sizes []int64, axes []string) ([]spec.Axis, error) {
	var out []spec.Axis
	if sizes != nil {
		out = append(out, spec.Axis{Name: "N", Values: sizes})
	}
	for _, s := range axes {
		ax, err := parseAxis(s)
		if err != nil {
			return nil, fail.Usagef("--axis %s: %v", s, err)
		}
		if axisIndex(out, ax.Name) >= 0 {
			return nil, fail.Usagef("--axis %s: axis %s is given twice (--size makes axis N): give it once", s, ax.Name)
		}
		out = append(out, ax)
	}
	return out, nil
}

// parseAxis reads NAME=V1,V2,... (values in the size grammar: 1Ki, 2^10).
func parseAxis(s string) (spec.Axis, error) {
	name, vals, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || vals == "" {
		return spec.Axis{}, errors.New("want NAME=VALUE[,VALUE...]")
	}
	ax := spec.Axis{Name: name}
	for _, v := range strings.Split(vals, ",") {
		n, err := spec.ParseSize(strings.TrimSpace(v))
		if err != nil {
			return spec.Axis{}, err
		}
		ax.Values = append(ax.Values, n)
	}
	return ax, nil
}

func axisIndex(axes []spec.Axis, name string) int {
	return slices.IndexFunc(axes, func(a spec.Axis) bool { return a.Name == name })
}

// axesText lists the axes for an error: "its axes: N, T" or "it has none".
func axesText(axes []spec.Axis) string {
	if len(axes) == 0 {
		return "it has no axes"
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.Name)
	}
	return "its axes: " + strings.Join(names, ", ")
}
