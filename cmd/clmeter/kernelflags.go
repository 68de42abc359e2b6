package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/target"
)

// kernelFlags describe the kernel a command measures, checks or tunes, and
// override a spec file's axes or a built-in's size: run, check, tune, compare
// --interleave and trace take them alike and resolve them through package
// target (target.Rule).
var kernelFlags = []cli.Flag{
	&cli.StringFlag{Name: "kernel", Aliases: []string{"k"}, Usage: "the kernel function in FILE.cl"},
	&cli.StringFlag{Name: "size", Aliases: []string{"n"}, Usage: "problem size N in elements (1Mi, 4K, 2^20); a comma list sweeps; FILE.cl expressions may use N; replaces a spec file's axis N"},
	&cli.StringFlag{Name: "global", Aliases: []string{"g"}, Usage: "global work size, 1-3 comma-separated expressions over N and the axes (4096,4096 or N)"},
	&cli.StringFlag{Name: "local", Aliases: []string{"l"}, Usage: "local work size, expressions as for --global (default: the driver picks)"},
	&cli.StringSliceFlag{Name: "arg", Aliases: []string{"a"}, Usage: "a kernel argument, once per argument in order (see 'clmeter run --help')"},
	&cli.StringSliceFlag{Name: "D", Usage: "a preprocessor definition for the build: -D TILE=16; $NAME is an axis's value: -D TILE=$T"},
	&cli.StringSliceFlag{Name: "I", Usage: "an include folder for the build"},
	&cli.StringFlag{Name: "options", Usage: "more build options, e.g. -cl-fast-relaxed-math"},
	&cli.StringFlag{Name: "bytes", Usage: "bytes moved per launch, an expression (2*N*4), for GB/s"},
	&cli.StringFlag{Name: "flops", Usage: "floating-point operations per launch, an expression (2*N), for GFLOP/s"},
	&cli.StringSliceFlag{Name: "set", Usage: "replace an axis's values: --set T=8,16 (a spec file's axes; --set N=... is --size)"},
	&cli.Int64Flag{Name: "max-configs", Usage: "the most configurations (the product of the axes' value counts) a target may have (default 10000)"},
}

// kernelDescription reads kernelFlags.
func kernelDescription(c *cli.Context) target.Flags {
	return target.Flags{
		Kernel: c.String("kernel"), Global: c.String("global"), Local: c.String("local"),
		Args: c.StringSlice("arg"), Defines: c.StringSlice("D"), Includes: c.StringSlice("I"),
		BuildOptions: c.String("options"), Bytes: c.String("bytes"), Flops: c.String("flops"),
		Sizes: c.String("size"), Set: c.StringSlice("set"), MaxConfigs: c.Int64("max-configs"),
	}
}

// flagList joins flag lists into a new one (appending to a shared list could
// write into another command's).
func flagList(lists ...[]cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
