package spec

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestEvalAndSizes(t *testing.T) {
	vars := Vars{"N": 1024, "M": 3}
	cases := []struct {
		in   string
		want int64
		err  string
	}{
		{"4096", 4096, ""},
		{"4K", 4000, ""},
		{"4Ki", 4096, ""},
		{"1Mi", 1 << 20, ""},
		{"16Mi", 16 << 20, ""},
		{"2G", 2000000000, ""},
		{"1Gi", 1 << 30, ""},
		{"2^20", 1 << 20, ""},
		{"2^2^3", 256, ""},
		{"N*N*4", 1024 * 1024 * 4, ""},
		{"2*(N+M)", 2054, ""},
		{"N/M", 341, ""},
		{"N%M", 1, ""},
		{"-N+2048", 1024, ""},
		{" N * 2 ", 2048, ""},
		{"N/0", 0, "division by zero"},
		{"X", 0, "unknown name X (defined: M, N)"},
		{"4Q", 0, "unknown size suffix"},
		{"2^70", 0, "overflow"},
		{"9223372036854775807+1", 0, "overflow"},
		{"(N", 0, "missing ')'"},
		{"N N", 0, "unexpected"},
		{"", 0, "ends early"},
		{"1.5", 0, "unexpected"},
		{"$", 0, "unexpected character"},
	}
	for _, c := range cases {
		got, err := Eval(c.in, vars)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Eval(%q) = %d, %v; want error containing %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Eval(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"0", "-4", "0Ki"} {
		if _, err := ParseSize(bad); err == nil || !strings.Contains(err.Error(), "positive") {
			t.Errorf("ParseSize(%q) = %v, want a positive-size error", bad, err)
		}
	}
}

func TestParseArg(t *testing.T) {
	cases := []struct {
		in  string
		ok  func(ArgSpec) bool
		err string
	}{
		{"buf:float:N:rand", func(a ArgSpec) bool { return a.Kind == KindBuffer && a.Type.Size() == 4 && a.Init == "rand" && !a.Out }, ""},
		{"buf:float4:1Mi:zero:out", func(a ArgSpec) bool { return a.Type.Size() == 16 && a.Out && a.Count == "1Mi" }, ""},
		{"buf:double3:8:2.5", func(a ArgSpec) bool { return a.Type.Size() == 32 && a.Init == "2.5" }, ""},
		{"local:float:256", func(a ArgSpec) bool { return a.Kind == KindLocal && a.Count == "256" }, ""},
		{"int:4096", func(a ArgSpec) bool { return a.Kind == KindValue && a.Values[0] == "4096" }, ""},
		{"float4:1,2,3,4", func(a ArgSpec) bool { return len(a.Values) == 4 }, ""},
		{"half:1.5", func(a ArgSpec) bool { return a.Type.Size() == 2 }, ""},
		{"buf:float", nil, "buf:TYPE:COUNT"},
		{"buf:flot:4", nil, "unknown type \"flot\""},
		{"buf:float:4:bogus", nil, "unknown buffer option"},
		{"float4:1,2", nil, "takes 1 or 4 values"},
		{"int5:1", nil, "2, 3, 4, 8 or 16 lanes"},
		{"int", nil, "want buf:TYPE"},
		{"local:float", nil, "local:TYPE:COUNT"},
		{"blah:1", nil, "unknown type"},
	}
	for _, c := range cases {
		a, err := ParseArg(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseArg(%q) err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !c.ok(a) {
			t.Errorf("ParseArg(%q) = %+v, %v", c.in, a, err)
		}
	}
}

func TestResolveArgs(t *testing.T) {
	vars := Vars{"N": 8}
	a, _ := ParseArg("buf:float:N:seq:out")
	r, err := a.Resolve(0, vars)
	if err != nil || r.Bytes != 32 || !r.Output {
		t.Fatalf("%+v %v", r, err)
	}
	b := make([]byte, r.Bytes)
	r.Init(b)
	if got := (ElemType{Scalar: "float", size: 4}).scalarAt(b[28:]); got != 7 {
		t.Errorf("seq element 7 = %v", got)
	}
	v, _ := ParseArg("int:N*2")
	rv, err := v.Resolve(1, vars)
	if err != nil || len(rv.Value.([]byte)) != 4 || rv.Value.([]byte)[0] != 16 {
		t.Errorf("int:N*2 = %v %v", rv.Value, err)
	}
	f4, _ := ParseArg("float3:1.5")
	rf, _ := f4.Resolve(2, vars)
	if len(rf.Value.([]byte)) != 16 {
		t.Errorf("float3 takes 16 bytes, got %d", len(rf.Value.([]byte)))
	}
	neg, _ := ParseArg("buf:float:N-9")
	if _, err := neg.Resolve(0, vars); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("negative count: %v", err)
	}
	h, _ := ParseType("half")
	enc, _ := h.Encode([]float64{1.5})
	if h.scalarAt(enc) != 1.5 {
		t.Errorf("half round trip %v", h.scalarAt(enc))
	}
}

func TestInstances(t *testing.T) {
	k := &Kernel{Axes: []Axis{{Name: "N", Values: []int64{1, 2}}, {Name: "M", Values: []int64{10, 20, 30}}}}
	in := k.Instances()
	if len(in) != 6 || in[0].Label() != "N=1,M=10" || in[5].Label() != "N=2,M=30" || in[4].Vars["M"] != 20 {
		t.Errorf("instances %+v", in)
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodSpec = `source: k.cl
kernel: scale
defines: [FACTOR=2]
include: [inc]
global: N
local: 16
args:
  - buf:float:N:ones
  - buf:float:N:zero:out
bytes: 8*N
flops: N
axes:
  N: [64, 128]
expect:
  - {arg: 1, value: 2}
`

func TestParseFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cl": "__kernel void scale() {}", "s.yaml": goodSpec})
	k, err := LoadFile(filepath.Join(dir, "s.yaml"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if k.Kernel != "scale" || len(k.Args) != 2 || len(k.Axes) != 1 || len(k.Instances()) != 2 || k.Expect[0].Value != "2" {
		t.Errorf("%+v", k)
	}
	if !strings.Contains(k.Options, "-DFACTOR=2") || !strings.Contains(k.Options, "-I"+filepath.Join(dir, "inc")) {
		t.Errorf("options %q", k.Options)
	}
	r, err := k.resolve(k.Instances()[1])
	if err != nil || r.bytes != 1024 || r.global[0] != 128 {
		t.Errorf("%+v %v", r, err)
	}
}

func TestParseFileErrors(t *testing.T) {
	cases := []struct{ body, err string }{
		{"source: k.cl\nkernel: scale\nglobal: 4\nbogus: 1\n", "s.yaml:4: field bogus is not a spec file field"},
		{"source: k.cl\nkernel: [\n", "s.yaml:"},
		{"source: k.cl\nkernel: scale\nglobal: 4\nargs:\n  - buf:nope:4\n", "args[0]"},
		{"source: k.cl\nkernel: scale\nglobal: 10\nlocal: 3\n", "not a multiple of local size"},
		{"source: k.cl\nkernel: scale\nglobal: X\n", "X is not a number"},
		{"source: k.cl\nkernel: scale\nglobal: N\naxes:\n  N: [0]\n", "s.yaml:5: axis N"},
		{"source: missing.cl\nkernel: scale\nglobal: 4\n", "missing.cl"},
		{"kernel: scale\nglobal: 4\n", "source: is missing"},
		{"", "empty"},
		{"source: k.cl\nkernel: scale\nglobal: 4\nargs: [buf:float:4]\nexpect:\n  - {arg: 0, value: 1}\n", "not marked :out"},
		{"source: k.cl\nkernel: scale\nglobal: 4\nexpect:\n  - {arg: 0, wrong: 1}\n", "s.yaml:5: field wrong is not an expect field"},
	}
	for _, c := range cases {
		dir := writeFiles(t, map[string]string{"k.cl": "x", "s.yaml": c.body})
		_, err := LoadFile(filepath.Join(dir, "s.yaml"), 0)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("spec %q: err %v, want %q", c.body, err, c.err)
		}
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"4096", "1Mi", "2^20", "N*N*4", "(N+1)/2", "-3%2", "2^2^2^2", "(-1)^999999999999", "0^99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Eval(s, Vars{"N": 1 << 20})
		if err == nil && s == "" {
			t.Errorf("empty expression gave %d", v)
		}
	})
}

func FuzzParseArg(f *testing.F) {
	for _, s := range []string{"buf:float:N:rand", "local:float:256", "float4:1,2,3,4", "int:4096", "buf:uchar16:1Ki:seq:out",
		"char:300", "uint:-1", "int:99999999999", "ulong:18446744073709551615", "long:-9223372036854775808", "half:65504", "float:1e39", "int:1e3", "double:nan"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseArg(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseArg(%q): a message of several lines: %q", s, err)
			}
			return
		}
		r, err := a.Resolve(0, Vars{"N": 64})
		if err == nil && a.Kind == KindValue && len(a.Values) == 0 {
			t.Errorf("value without values: %q", s)
		}
		if err == nil && a.Kind == KindValue && len(r.Value.([]byte)) != a.Type.Size() {
			t.Errorf("%q: %d bytes for a %s", s, len(r.Value.([]byte)), a.Type.Name)
		}
		// An integer value that was taken fits its type: reading it back
		// gives the number written, when that number is a plain decimal.
		if err == nil && a.Kind == KindValue && a.Type.Lanes == 1 && !a.Type.IsFloat() && a.Type.Scalar != "ulong" {
			if want, perr := strconv.ParseInt(strings.TrimSpace(a.Values[0]), 10, 64); perr == nil {
				if got := a.Type.scalarAt(r.Value.([]byte)); got != float64(want) {
					t.Errorf("%q: wrote %v, reads back %v", s, want, got)
				}
			}
		}
	})
}

// FuzzParseSize: a size either parses to a positive count, equal to the plain
// decimal it may be, or fails with one line.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4096", "1Mi", "2^20", "0", "-5", "abc", "1Zi", "99999999999999999999", "2^99", "(4", "4/0", "4096!", "(-1)^3", "1K*1K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSize(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseSize(%q): a message of several lines: %q", s, err)
			}
			return
		}
		if v <= 0 {
			t.Errorf("ParseSize(%q) = %d, want a positive size or an error", s, v)
		}
		if n, perr := strconv.ParseInt(strings.TrimSpace(s), 10, 64); perr == nil && n != v {
			t.Errorf("ParseSize(%q) = %d, want %d", s, v, n)
		}
	})
}

func TestScalarRanges(t *testing.T) {
	for _, c := range []struct {
		arg, err string
	}{
		{"char:127", ""}, {"char:-128", ""}, {"char:128", "out of range for char (-128 to 127)"}, {"char:300", "out of range for char"},
		{"uchar:255", ""}, {"uchar:256", "out of range for uchar (0 to 255)"}, {"uchar:-1", "out of range for uchar"},
		{"short:-32768", ""}, {"short:32768", "out of range for short"}, {"ushort:65535", ""}, {"ushort:65536", "out of range"},
		{"int:2147483647", ""}, {"int:99999999999", "out of range for int"}, {"int:-2^31", ""}, {"int:2^31", "out of range for int"},
		{"uint:4294967295", ""}, {"uint:-1", "out of range for uint (0 to 4294967295)"},
		{"long:-9223372036854775808", ""}, {"long:9223372036854775808", "out of range for long"},
		{"ulong:18446744073709551615", ""}, {"ulong:-1", "out of range for ulong"}, {"ulong:18446744073709551616", "out of range for ulong"},
		{"int:2.5", "not a whole number"}, {"int:1e3", ""}, {"uchar:255.0", ""},
		{"half:65504", ""}, {"half:70000", "out of range for half"}, {"half:inf", ""},
		{"float:3.4e38", ""}, {"float:1e39", "out of range for float"}, {"float:-inf", ""}, {"float:nan", ""},
		{"double:1e308", ""}, {"double:1e400", "out of range for double"},
		{"int4:1,2,3,3000000000", "3000000000 is out of range for int"},
	} {
		a, err := ParseArg(c.arg)
		if err == nil {
			_, err = a.Resolve(0, nil)
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.arg, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.arg, err, c.err)
		}
	}
	// Values are exact beyond 2^53 for the 64-bit types.
	a, _ := ParseArg("ulong:18446744073709551615")
	r, _ := a.Resolve(0, nil)
	if binary.LittleEndian.Uint64(r.Value.([]byte)) != math.MaxUint64 {
		t.Errorf("ulong max encoded as %x", r.Value)
	}
	a, _ = ParseArg("long:9007199254740993")
	r, _ = a.Resolve(0, nil)
	if int64(binary.LittleEndian.Uint64(r.Value.([]byte))) != 9007199254740993 {
		t.Errorf("long 2^53+1 encoded as %x", r.Value)
	}
}

func TestPowerOfMinusOneIsQuick(t *testing.T) {
	for s, want := range map[string]int64{"(-1)^999999999999": -1, "(-1)^1000000000000": 1} {
		if v, err := Eval(s, nil); err != nil || v != want {
			t.Errorf("Eval(%q) = %d, %v, want %d", s, v, err, want)
		}
	}
}

func FuzzParseFile(f *testing.F) {
	f.Add([]byte(goodSpec))
	f.Add([]byte("source: k.cl\nkernel: k\nglobal: [N, N]\naxes: {N: [1, 2]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "k.cl"), []byte("x"), 0o644)
		ParseFile(filepath.Join(dir, "s.yaml"), data)
	})
}

func TestExpandOptions(t *testing.T) {
	got, err := ExpandOptions("-DTILE=$T -DW=${W} -cl-fast-relaxed-math", Vars{"T": 16, "W": 4})
	if err != nil || got != "-DTILE=16 -DW=4 -cl-fast-relaxed-math" {
		t.Errorf("ExpandOptions = %q, %v", got, err)
	}
	if _, err := ExpandOptions("-DTILE=$NOPE", Vars{"T": 16}); err == nil || !strings.Contains(err.Error(), "$NOPE, which is not an axis") {
		t.Errorf("unknown axis: %v", err)
	}
	k := &Kernel{SourcePath: "k.cl", Kernel: "k", Global: "N", Local: "T", Options: "-DTILE=$T",
		Axes: []Axis{{Name: "N", Values: []int64{64}}, {Name: "T", Values: []int64{4, 8}}}}
	if err := k.Check(); err != nil {
		t.Fatal(err)
	}
	k.Options = "-DTILE=$X"
	if err := k.Check(); err == nil {
		t.Error("Check passed an option naming no axis")
	}
}

// TestSpecPathsFromRealFolder: a spec reached through a symbolic link to its
// folder finds "../../kernels/k.cl" from the folder it really is in.
func TestSpecPathsFromRealFolder(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	os.MkdirAll(filepath.Join(repo, "kernels"), 0o755)
	os.MkdirAll(filepath.Join(repo, "examples", "sub"), 0o755)
	os.WriteFile(filepath.Join(repo, "kernels", "k.cl"), []byte("kernel void k(global float *x) { x[0] = 1; }\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "examples", "sub", "s.yaml"), []byte("source: ../../kernels/k.cl\nkernel: k\nglobal: 1\nargs: [\"buffer:float:1\"]\n"), 0o644)
	other := filepath.Join(tmp, "other")
	os.MkdirAll(other, 0o755)
	if err := os.Symlink(filepath.Join(repo, "examples"), filepath.Join(other, "examples")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	k, err := LoadFileUnchecked(filepath.Join(other, "examples", "sub", "s.yaml"))
	if err != nil {
		t.Fatalf("through the link: %v", err)
	}
	if !strings.Contains(k.Source, "kernel void k") {
		t.Errorf("source %s read as %q", k.SourcePath, k.Source)
	}
}
