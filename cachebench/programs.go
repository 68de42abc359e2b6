package cachebench

import (
	"fmt"
	"strings"
)

// benchArg is what a launch passes for one kernel argument.
type benchArg int

const (
	argBuffer benchArg = iota // a global buffer of benchItemBytes per work-item
	argInt                    // an integer scalar: the work-item count
)

// benchProgram is a program of the cache experiment.
type benchProgram struct {
	Name   string
	Source string
	// Dir is the file's folder (for #include), "" for built-ins.
	Dir string
	// Kernel is launched with Args (nil Args: find them with arg info).
	Kernel string
	Args   []benchArg
}

// options are the build options: OpenCL compilers look #include "x.h" up from
// the working folder, so a file's folder is added as -I.
func (p benchProgram) options() string {
	if p.Dir == "" {
		return ""
	}
	return "-I" + p.Dir
}

// builtinBenchPrograms are the experiment's built-in programs: "small" (two
// kernels) and "large" (32 distinct kernels).
var builtinBenchPrograms = map[string]func() benchProgram{
	"small": func() benchProgram {
		return benchProgram{Name: "small", Source: smallBenchSource, Kernel: "saxpy", Args: []benchArg{argBuffer, argBuffer, argInt}}
	},
	"large": func() benchProgram {
		return benchProgram{Name: "large", Source: largeBenchSource(32), Kernel: "k00", Args: []benchArg{argBuffer, argBuffer, argInt}}
	},
}

const smallBenchSource = `// clmeter cache bench: small program (saxpy and scale)
#define A 2.5f
__kernel void saxpy(__global float *y, __global const float *x, int n) {
	int i = get_global_id(0);
	if (i < n) y[i] = A * x[i] + y[i];
}
__kernel void scale(__global float *y, __global const float *x, int n) {
	int i = get_global_id(0);
	if (i < n) y[i] = A * x[i];
}
`

// largeBenchSource generates n distinct, non-trivial kernels k00..k(n-1), each
// (global float *out, global const float *in, int n): a mix of polynomial,
// transcendental, vector, branchy and local-memory code chosen per kernel.
func largeBenchSource(n int) string {
	var b strings.Builder
	b.WriteString("// clmeter cache bench: large program of generated kernels\n")
	ops := []string{
		"acc = mad(acc, x, %[1]d.25f);",
		"acc += native_sin(acc * 0.%[1]d1f) * x;",
		"acc = acc * acc * 0.001f + sqrt(fabs(x) + %[1]d.0f);",
		"acc += exp(-fabs(acc) * 0.0%[1]d1f);",
		"{ float4 v = (float4)(acc, x, acc - x, %[1]d.5f); v = v * v + (float4)(1.0f); acc += dot(v, (float4)(0.25f)); }",
		"if (acc > %[1]d.0f) acc = log(acc + 1.0f); else acc = acc * 1.5f - x;",
		"for (int r = 0; r < %[1]d %% 7 + 3; r++) acc = fma(acc, 0.99f, x * 0.01f);",
		"acc = hypot(acc, x) + atan2(x, acc + %[1]d.0f);",
		"{ int m = (int)(fabs(acc) * 16.0f); switch ((m + %[1]d) & 3) { case 0: acc += 1.0f; break; case 1: acc -= x; break; case 2: acc *= 0.5f; break; default: acc = cos(acc); } }",
		"acc = clamp(acc, -%[1]d.0f, %[1]d.0f) + pown(x, 3);",
	}
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "\nfloat helper%02d(float acc, float x) {\n", k)
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&b, "\t"+ops[(k*7+j*3)%len(ops)]+"\n", k+j+1)
		}
		b.WriteString("\treturn acc;\n}\n")
		fmt.Fprintf(&b, "__kernel void k%02d(__global float *out, __global const float *in, int n) {\n", k)
		b.WriteString("\tint i = get_global_id(0);\n")
		if k%4 == 3 {
			b.WriteString("\t__local float tile[64];\n\tint l = get_local_id(0) & 63;\n")
			b.WriteString("\ttile[l] = i < n ? in[i] : 0.0f;\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
			b.WriteString("\tfloat x = tile[l] + tile[(l + 1) & 63];\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
		} else {
			b.WriteString("\tfloat x = i < n ? in[i] : 0.0f;\n")
		}
		b.WriteString("\tif (i >= n) return;\n")
		fmt.Fprintf(&b, "\tfloat acc = x * %d.0f;\n", k+1)
		fmt.Fprintf(&b, "\tfor (int j = 0; j < %d; j++) acc = helper%02d(acc, x + (float)j);\n", 2+k%5, k)
		b.WriteString("\tout[i] = acc;\n}\n")
	}
	return b.String()
}
