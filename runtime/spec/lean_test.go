package spec

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/internal/devtest"
)

// A filled buffer argument is a regenerated input (runtime.Arg.Regen): its
// fill writes the same bytes every time; a zero buffer has no fill at all.
func TestBufferArgsAreRegenerated(t *testing.T) {
	for _, c := range []struct {
		arg   string
		regen bool
	}{{"buf:float:N:rand", true}, {"buf:int:N:seq:out", true}, {"buf:double:N:2.5", true}, {"buf:float:N:ones", true}, {"buf:float:N", false}, {"buf:float:N:zero:out", false}} {
		a, err := ParseArg(c.arg)
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Resolve(3, Vars{"N": 1000})
		if err != nil {
			t.Fatal(err)
		}
		if r.Regen != c.regen || (r.Init != nil) != c.regen {
			t.Errorf("%s: Regen %v, Init set %v; want %v", c.arg, r.Regen, r.Init != nil, c.regen)
		}
		if r.Init == nil {
			continue
		}
		first, again := make([]byte, r.Bytes), make([]byte, r.Bytes)
		r.Init(first)
		r.Init(again)
		if !bytes.Equal(first, again) {
			t.Errorf("%s: two fills differ", c.arg)
		}
	}
}

// A user's kernel keeps no host copy of its buffers, filled or zero: the
// check (expect) gets none, and still finds a right output right and a wrong
// one wrong.
func TestUserKernelKeepsNoHostCopy(t *testing.T) {
	dev := devtest.Device(t)
	src := `__kernel void axpy(__global float *y, __global const float *x, float a) { size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }`
	for _, c := range []struct {
		y, x, want string
		ok         bool
	}{{"ones", "ones", "3", true}, {"ones", "ones", "4", false}, {"zero", "zero", "0", true}, {"zero", "zero", "1", false}} {
		k := &Kernel{SourcePath: "axpy.cl", Source: src, Kernel: "axpy", Global: "N",
			Axes: []Axis{{Name: "N", Values: []int64{1 << 20}}}, Expect: []Expect{{Arg: 0, Value: c.want}}}
		for _, s := range []string{"buf:float:N:" + c.y + ":out", "buf:float:N:" + c.x, "float:2"} {
			a, err := ParseArg(s)
			if err != nil {
				t.Fatal(err)
			}
			k.Args = append(k.Args, a)
		}
		kb, err := k.Benchmark(dev, k.Instances()[0])
		if err != nil {
			t.Fatal(err)
		}
		check := kb.Check
		kb.Check = func(in, out map[int][]byte) error {
			if len(in) != 0 {
				return fmt.Errorf("%d host copies of buffers were kept", len(in))
			}
			return check(in, out)
		}
		ctx := context.Background()
		if _, err := kb.Setup(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := kb.Launch(ctx, 2); err != nil {
			t.Fatal(err)
		}
		verr := kb.Validate(ctx)
		if _, err := kb.RunPhases(ctx); err != nil {
			t.Fatal(err)
		}
		kb.Teardown()
		if c.ok && verr != nil || !c.ok && (verr == nil || !strings.Contains(verr.Error(), "want "+c.want)) {
			t.Errorf("y %s, x %s, expect %s: validation says %v", c.y, c.x, c.want, verr)
		}
	}
}
