package target

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime/spec"
)

const scaleCL = `__kernel void scale(__global const float *in, __global float *out) {
	out[get_global_id(0)] = in[get_global_id(0)] * FACTOR;
}
`

// sweepYAML has two axes, N and F; F is a -D value.
const sweepYAML = `source: scale.cl
kernel: scale
defines: [FACTOR=$F]
global: N
args: [buf:float:N:ones, buf:float:N:zero:out]
axes:
  N: [1Ki, 4Ki]
  F: [1, 2, 3]
`

// files are the fixtures: a FILE.cl with a spec beside it, one without, a
// spec naming another source, a spec without axis N, and odd names.
type files struct{ dir, cl, yaml, yml, lone, other, otherYAML, noN, noExt, bad string }

func fixtures(t *testing.T) files {
	t.Helper()
	d := t.TempDir()
	f := files{dir: d, cl: filepath.Join(d, "scale.cl"), yaml: filepath.Join(d, "sweep.yaml"), yml: filepath.Join(d, "sweep2.yml"),
		lone: filepath.Join(d, "lone.cl"), other: filepath.Join(d, "other.cl"), otherYAML: filepath.Join(d, "other.yaml"),
		noN: filepath.Join(d, "fixed.yaml"), noExt: filepath.Join(d, "kernel.txt"), bad: filepath.Join(d, "bad.yaml")}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(f.cl, scaleCL)
	write(filepath.Join(d, "scale.yaml"), sweepYAML)
	write(f.yaml, sweepYAML)
	write(f.yml, sweepYAML)
	write(f.lone, scaleCL)
	write(f.other, scaleCL)
	write(f.otherYAML, strings.Replace(sweepYAML, "source: scale.cl", "source: lone.cl", 1))
	write(f.noN, "source: scale.cl\nkernel: scale\ndefines: [FACTOR=$F]\nglobal: 64\nargs: [buf:float:64, buf:float:64:out]\naxes:\n  F: [1, 2]\n")
	write(f.noExt, scaleCL)
	write(f.bad, "source: scale.cl\nkernel: scale\nglobal: 4096/(N-4)\nargs: [buf:float:64, buf:float:64:out]\naxes:\n  N: [8]\n")
	return f
}

// labels are the instances of a resolved kernel: "N=1024,F=2".
func labels(t *Target) []string {
	var out []string
	for _, in := range t.Kernel.Instances() {
		out = append(out, in.Label())
	}
	return out
}

func TestResolve(t *testing.T) {
	f := fixtures(t)
	user := Flags{Kernel: "scale", Global: "N", Args: []string{"buf:float:N:ones", "buf:float:N:zero:out"}, Defines: []string{"FACTOR=2"}}
	with := func(g Flags, edit func(*Flags)) Flags { edit(&g); return g }
	cases := []struct {
		name   string
		target string
		flags  Flags
		def    Defaults
		check  func(*Target) string // "" when right, else what is wrong
	}{
		{"built-in, its device's default size", "saxpy", Flags{}, Defaults{}, func(t *Target) string {
			return want(t.IsBuiltin && t.Builtin.Name == "saxpy" && t.Sizes == nil && !t.DefaultedN && t.Kernel == nil, "%+v", t)
		}},
		{"built-in, the command's default size", "saxpy", Flags{}, Defaults{N: 1024}, func(t *Target) string {
			return want(slices.Equal(t.Sizes, []int64{1024}) && t.DefaultedN, "sizes %v defaulted %v", t.Sizes, t.DefaultedN)
		}},
		{"built-in --size list", "copy", Flags{Sizes: "1Ki, 2^11"}, Defaults{N: 7}, func(t *Target) string {
			return want(slices.Equal(t.Sizes, []int64{1024, 2048}) && !t.DefaultedN && slices.Equal(t.Overridden, []string{"N"}), "%v %v", t.Sizes, t.Overridden)
		}},
		{"built-in --set N is --size", "copy", Flags{Set: []string{"N=4K"}}, Defaults{}, func(t *Target) string {
			return want(slices.Equal(t.Sizes, []int64{4000}), "%v", t.Sizes)
		}},
		{"FILE.cl with flags and --size", f.cl, with(user, func(g *Flags) { g.Sizes = "1Ki,4Ki" }), Defaults{}, func(t *Target) string {
			return want(t.SpecFile == "" && t.Kernel.Kernel == "scale" && t.Kernel.Options == "-DFACTOR=2" && slices.Equal(labels(t), []string{"N=1024", "N=4096"}), "%+v %v", t.Kernel, labels(t))
		}},
		{"FILE.cl using N gets the command's default", f.cl, user, Defaults{N: 256}, func(t *Target) string {
			return want(t.DefaultedN && slices.Equal(labels(t), []string{"N=256"}), "%v", labels(t))
		}},
		{"FILE.cl not using N has no axis", f.cl, with(user, func(g *Flags) { g.Global, g.Args = "64", []string{"buf:float:64", "buf:float:64:out"} }), Defaults{N: 256}, func(t *Target) string {
			return want(!t.DefaultedN && len(t.Kernel.Axes) == 0 && slices.Equal(labels(t), []string{""}), "%v", labels(t))
		}},
		{"FILE.cl --axis and --set", f.cl, with(user, func(g *Flags) {
			g.Sizes, g.Defines, g.Axes, g.Set = "1Ki", []string{"FACTOR=$F"}, []string{"F=1,2,3", "L=16"}, []string{"F=3"}
		}), Defaults{}, func(t *Target) string {
			return want(slices.Equal(labels(t), []string{"N=1024,F=3,L=16"}) && slices.Equal(t.Overridden, []string{"N", "F"}), "%v %v", labels(t), t.Overridden)
		}},
		{"FILE.cl without flags uses the spec beside it", f.cl, Flags{Sizes: "2Ki"}, Defaults{N: 64}, func(t *Target) string {
			return want(t.SpecFile == filepath.Join(f.dir, "scale.yaml") && t.Name == f.cl && !t.DefaultedN && slices.Equal(labels(t), []string{"N=2048,F=1", "N=2048,F=2", "N=2048,F=3"}), "%s %v", t.SpecFile, labels(t))
		}},
		{"spec file as it is", f.yaml, Flags{}, Defaults{N: 64}, func(t *Target) string {
			return want(t.SpecFile == f.yaml && len(labels(t)) == 6 && t.Overridden == nil && !t.DefaultedN, "%v %v", labels(t), t.Overridden)
		}},
		{"spec file .yml", f.yml, Flags{}, Defaults{}, func(t *Target) string { return want(t.SpecFile == f.yml, "%s", t.SpecFile) }},
		{"spec file --size replaces N", f.yaml, Flags{Sizes: "2Ki"}, Defaults{}, func(t *Target) string {
			return want(slices.Equal(labels(t), []string{"N=2048,F=1", "N=2048,F=2", "N=2048,F=3"}) && slices.Equal(t.Overridden, []string{"N"}), "%v", labels(t))
		}},
		{"spec file --set replaces an axis", f.yaml, Flags{Set: []string{"F=2,4"}, Sizes: "64"}, Defaults{}, func(t *Target) string {
			return want(slices.Equal(labels(t), []string{"N=64,F=2", "N=64,F=4"}) && slices.Equal(t.Overridden, []string{"N", "F"}), "%v %v", labels(t), t.Overridden)
		}},
		{"spec file --set N", f.yaml, Flags{Set: []string{"N=128"}}, Defaults{}, func(t *Target) string {
			return want(len(labels(t)) == 3 && labels(t)[0] == "N=128,F=1", "%v", labels(t))
		}},
	}
	for _, c := range cases {
		got, err := Resolve(c.target, c.flags, c.def)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Name != c.target {
			t.Errorf("%s: name %q", c.name, got.Name)
		}
		if msg := c.check(got); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
	}
}

// want is "" when ok, else the message.
func want(ok bool, format string, a ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, a...)
}

// TestResolveErrors: every error is a one-line usage error naming the
// problem and the fix.
func TestResolveErrors(t *testing.T) {
	f := fixtures(t)
	user := Flags{Kernel: "scale", Global: "N", Args: []string{"buf:float:N", "buf:float:N:out"}, Defines: []string{"FACTOR=2"}, Sizes: "64"}
	with := func(edit func(*Flags)) Flags { g := user; edit(&g); return g }
	cases := []struct {
		name, target string
		flags        Flags
		want         []string
	}{
		{"no target", "", Flags{}, []string{"no target", "saxpy", "FILE.cl"}},
		{"bad --size", "saxpy", Flags{Sizes: "4096,"}, []string{"--size", "ends early"}},
		{"zero --size", "saxpy", Flags{Sizes: "0"}, []string{"--size", "must be positive"}},
		{"--set without =", "saxpy", Flags{Set: []string{"N"}}, []string{"--set N", "want NAME=VALUE"}},
		{"--set value a word", f.yaml, Flags{Set: []string{"F=abc"}}, []string{"--set F=abc", "abc is not a number"}},
		{"--set twice", f.yaml, Flags{Set: []string{"F=1", "F=2"}}, []string{"--set F=2", "axis F is given twice"}},
		{"--size and --set N", f.yaml, Flags{Sizes: "64", Set: []string{"N=128"}}, []string{"axis N is given twice", "--size is --set N"}},
		{"unknown built-in", "sxapy", Flags{}, []string{`unknown kernel "sxapy"`, "saxpy", "FILE.cl or FILE.yaml"}},
		{"a file without its extension", f.noExt, Flags{}, []string{"kernel.txt", "ends in .cl", ".yaml"}},
		{"a kernel flag for a built-in", "saxpy", Flags{Global: "4"}, []string{"--global is for your own kernels", "built-in saxpy sets its own"}},
		{"kernel flags for a built-in", "saxpy", Flags{Kernel: "k", Defines: []string{"X=1"}, Bytes: "4"}, []string{"--kernel, -D, --bytes are for your own kernels"}},
		{"--set of a built-in's other axis", "saxpy", Flags{Set: []string{"T=8"}}, []string{"--set T=8", "built-in saxpy has no axis T", "--size"}},
		{"kernel flags for a spec file", f.yaml, Flags{Kernel: "k", Args: []string{"int:1"}}, []string{"sweep.yaml", "a spec file holds", "drop --kernel, --arg", "--set NAME=VALUES"}},
		{"--axis for a spec file", f.yaml, Flags{Axes: []string{"T=1"}}, []string{"drop --axis"}},
		{"spec file missing", filepath.Join(f.dir, "nope.yaml"), Flags{}, []string{"nope.yaml", "no such file"}},
		{"spec file fails after --size", f.bad, Flags{Sizes: "4"}, []string{"bad.yaml", "division by zero"}},
		{"--size on a spec file without N", f.noN, Flags{Sizes: "64"}, []string{"--size", "fixed.yaml has no axis N", "its axes: F", "--set NAME=VALUES"}},
		{"--set of an axis a spec file lacks", f.yaml, Flags{Set: []string{"T=8"}}, []string{"--set T=8", "sweep.yaml has no axis T (its axes: N, F)"}},
		{"FILE.cl without flags or spec beside", f.lone, Flags{}, []string{"lone.cl", "--kernel, --global, --arg", "lone.yaml beside it"}},
		{"spec beside names another source", f.other, Flags{}, []string{"other.yaml names source", "lone.cl", "not " + f.other}},
		{"FILE.cl missing", filepath.Join(f.dir, "nope.cl"), user, []string{"nope.cl", "no such file"}},
		{"FILE.cl bad --arg", f.cl, with(func(g *Flags) { g.Args = []string{"buf:flaot:N"} }), []string{`unknown type "flaot"`}},
		{"FILE.cl without --kernel", f.cl, with(func(g *Flags) { g.Kernel = "" }), []string{"--kernel"}},
		{"FILE.cl N without --size", f.cl, with(func(g *Flags) { g.Sizes = "" }), []string{"N is not a number", "--size"}},
		{"--axis without =", f.cl, with(func(g *Flags) { g.Axes = []string{"T"} }), []string{"--axis T", "want NAME=VALUE"}},
		{"--axis N beside --size", f.cl, with(func(g *Flags) { g.Axes = []string{"N=4"} }), []string{"--axis N=4", "axis N is given twice"}},
		{"--set of an axis a FILE.cl lacks", f.cl, with(func(g *Flags) { g.Set = []string{"T=8"} }), []string{"--set T=8", "scale.cl has no axis T (its axes: N)"}},
		{"--set on a FILE.cl without axes", f.cl, with(func(g *Flags) {
			g.Sizes, g.Global, g.Args = "", "64", []string{"buf:float:64", "buf:float:64:out"}
			g.Set = []string{"T=1"}
		}), []string{"has no axis T (it has no axes)"}},
	}
	for _, c := range cases {
		_, err := Resolve(c.target, c.flags, Defaults{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", c.name, msg, w)
			}
		}
		if fail.KindOf(err) != fail.Usage || strings.Contains(msg, "\n") {
			t.Errorf("%s: want a one-line usage error, got kind %v: %q", c.name, fail.KindOf(err), msg)
		}
	}
}

func TestWithoutN(t *testing.T) {
	g := Flags{Sizes: "16Mi", Set: []string{"N=1Mi", " N =2", "T=8"}, Kernel: "k"}.WithoutN()
	if g.Sizes != "" || !slices.Equal(g.Set, []string{"T=8"}) || g.Kernel != "k" {
		t.Errorf("%+v", g)
	}
}

func TestLabel(t *testing.T) {
	tg := &Target{Name: "k.cl"}
	if l := tg.Label(spec.Instance{}); l != "k.cl" {
		t.Errorf("%q", l)
	}
	if l := tg.Label(spec.Instance{Names: []string{"N", "T"}, Values: []int64{4, 8}}); l != "k.cl N=4,T=8" {
		t.Errorf("%q", l)
	}
}

// TestOneResolver: no package but this one (and runtime/spec itself) reads a
// spec file, a kernel source or an --arg, so every command resolves its
// target here.
func TestOneResolver(t *testing.T) {
	root := filepath.Join("..")
	calls := []string{"spec.LoadFile(", "spec.LoadFileUnchecked(", "spec.ReadSource(", "spec.ParseArg("}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "third_party" || rel == "target" || rel == "runtime/spec" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range calls {
			if strings.Contains(string(b), c) {
				t.Errorf("%s calls %s: resolve targets through package target", rel, strings.TrimSuffix(c, "("))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
