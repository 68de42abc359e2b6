package runtime

import (
	"context"
	"strings"
	"testing"
)

func TestMapDriverFileNames(t *testing.T) {
	cases := map[string]string{
		"/root/.cache/pocl/kcache/AB/CD/tempfile_x1.cl:1:47: error: boom": "blur.cl:1:47: error: boom",
		"input.cl:4:15: error: boom":                                      "blur.cl:4:15: error: boom",
		"<kernel>:3:1: error: boom":                                       "blur.cl:3:1: error: boom",
		"error: include/blur.h:2:3: kept as it is":                        "error: include/blur.h:2:3: kept as it is",
		"warning: /tmp/pocl/tempfile_a.cl:9:2: two\nnext":                 "warning: blur.cl:9:2: two\nnext",
	}
	for in, want := range cases {
		if got := mapDriverFileNames(in, "blur.cl"); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestBuildErrorNamesTheUsersFile(t *testing.T) {
	_, dev := realDevice(t)
	_, _, err := dev.BuildFromSource(Source{Name: "mine/bad.cl", Text: "__kernel void k(__global float *x) {\n  x[0] = y;\n}\n"}, "")
	if err == nil {
		t.Fatal("a bad source built")
	}
	if !strings.Contains(err.Error(), "mine/bad.cl:2:") {
		t.Errorf("the error does not point into the user's file: %v", err)
	}
}

func TestDriverChatterIsCaptured(t *testing.T) {
	_, dev := realDevice(t)
	p, info, err := dev.BuildFromSource(Source{Name: "warn.cl", Text: "#warning clmeter-chatter-test\n__kernel void k(__global float *x) { x[0] = 1; }\n"}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	// Drivers differ in where the warning goes (stderr, the build log): both
	// end up in DriverOutput when it is printed at all.
	if info.DriverOutput != "" && !strings.Contains(info.DriverOutput, "warn") {
		t.Errorf("driver output %q", info.DriverOutput)
	}
	if strings.Contains(dev.Platform.Name, "Portable Computing Language") && !strings.Contains(info.DriverOutput, "warning generated") {
		t.Errorf("PoCL's compiler chatter was not captured: %q", info.DriverOutput)
	}
}

func TestArgTypesChecked(t *testing.T) {
	_, dev := realDevice(t)
	src := Source{Name: "args.cl", Text: "__kernel void k(__global float *x, int n) { if (get_global_id(0) < n) x[get_global_id(0)] = 1; }\n"}
	run := func(args []Arg) error {
		kb := &KernelBenchmark{Device: dev, Source: src, Kernel: "k", Args: args, Global: []int{4}, CheckArgTypes: true}
		defer kb.Teardown()
		_, err := kb.Setup(context.Background())
		return err
	}
	buf := Arg{Kind: ArgBuffer, Name: "buf:float:4", Bytes: 16, Type: "float"}
	if err := run([]Arg{buf, {Kind: ArgScalar, Name: "int:4", Value: int32(4), Type: "int"}}); err != nil {
		t.Fatalf("matching arguments refused: %v", err)
	}
	err := run([]Arg{{Kind: ArgScalar, Name: "int:5", Value: int32(5), Type: "int"}, {Kind: ArgScalar, Name: "int:4", Value: int32(4), Type: "int"}})
	if err == nil || !strings.Contains(err.Error(), "__global float*") || !strings.Contains(err.Error(), "a value of int") {
		t.Errorf("a value for a buffer: %v", err)
	}
	err = run([]Arg{buf, {Kind: ArgScalar, Name: "float:4", Value: float32(4), Type: "float"}})
	if err == nil || !strings.Contains(err.Error(), "is int") || !strings.Contains(err.Error(), "a value of float") {
		t.Errorf("a float for an int: %v", err)
	}
}
