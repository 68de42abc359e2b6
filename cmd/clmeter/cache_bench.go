package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/cachebench"
)

func cacheBenchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "measure program build time with and without clmeter's and the driver's binary caches",
		ArgsUsage: "[small | large | FILE.cl ...]",
		Description: "The binary-cache experiment. For each program (built-in 'small': 2 kernels; 'large': 32\n" +
			"   kernels; or an OpenCL C file) and each mode -- cold (both caches off), driver cache warm,\n" +
			"   clmeter cache warm, both warm -- it runs --trials fresh clmeter processes, so no in-process\n" +
			"   state flatters the figures. Each cache is warmed by an untimed process first and lives in a\n" +
			"   private temporary folder (CLMETER_CACHE_DIR, POCL_CACHE_DIR, CUDA_CACHE_PATH, ...): your caches\n" +
			"   are untouched. Driver caches are turned off with CUDA_CACHE_DISABLE=1, POCL_KERNEL_CACHE=0,\n" +
			"   NEO_CACHE_PERSISTENT=0, MESA_SHADER_CACHE_DISABLE=true, AMD_COMGR_CACHE=0; for a driver\n" +
			"   clmeter does not know, cold trials append a unique comment to the source instead.\n\n" +
			"   Each process times platform enumeration, context creation, program build, reading the\n" +
			"   binaries, the first launch (create kernel, set arguments, enqueue, finish) and the median of\n" +
			"   5 later launches. The table shows median [min-max] in ms across trials and the build speedup\n" +
			"   over cold. A FILE.cl is launched (its first kernel) only when every argument is a global\n" +
			"   buffer or an integer. -o writes a result file (kind cache-bench).",
		Flags: []cli.Flag{
			deviceFlag,
			&cli.IntFlag{Name: "trials", Aliases: []string{"n"}, Value: 5, Usage: "fresh processes per mode"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the result file here (JSON)"},
		},
		Action: func(c *cli.Context) error {
			return cachebench.Run(c.Context, cachebench.Options{
				Programs: c.Args().Slice(), Trials: c.Int("trials"), Device: c.String("device"),
				Output: c.String("output"), Tool: toolInfo(), Args: os.Args,
			}, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func cacheBenchChildCommand() *cli.Command {
	return &cli.Command{
		Name:   "bench-child",
		Usage:  "one trial of 'cache bench' (internal): prints one JSON line",
		Hidden: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "program", Required: true},
			&cli.StringFlag{Name: "device"},
			&cli.StringFlag{Name: "nonce"},
		},
		Action: func(c *cli.Context) error {
			return cachebench.Child(c.String("program"), c.String("device"), c.String("nonce"), c.App.Writer, c.App.ErrWriter)
		},
	}
}
