package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/cachebench"
)

func cacheBenchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "measure the time to first result with and without clmeter's and the driver's binary caches",
		ArgsUsage: "[small | large | FILE.cl ...]",
		Description: "The binary-cache experiment. For each program (built-in 'small': 2 kernels; 'large': 32\n" +
			"   kernels; or an OpenCL C file, its #includes found beside it) and each mode -- cold (both caches\n" +
			"   off), driver cache warm, clmeter cache warm, both warm, and miss (a first run: clmeter's cache\n" +
			"   empty, the driver's off) -- it runs --trials fresh clmeter processes, the modes interleaved, so\n" +
			"   no in-process state and no drift flatters a mode. Each cache lives in a private temporary folder\n" +
			"   (CLMETER_CACHE_DIR, POCL_CACHE_DIR, CUDA_CACHE_PATH, ...): your caches are untouched. Driver\n" +
			"   caches are turned off with CUDA_CACHE_DISABLE=1, POCL_KERNEL_CACHE=0, NEO_CACHE_PERSISTENT=0,\n" +
			"   MESA_SHADER_CACHE_DISABLE=true, AMD_COMGR_CACHE=0; for a driver clmeter does not know, cold\n" +
			"   trials append a unique declaration to the source instead. clmeter's cache is forced on in its modes\n" +
			"   (CLMETER_CACHE=1) also where its policy leaves it off.\n\n" +
			"   The table shows the time to first result (TTFR = enumeration + context + build + first launch:\n" +
			"   create kernel, set arguments, enqueue, finish), its speedup over cold and over the driver's\n" +
			"   cache alone, the same less enumeration (which no cache changes), its parts, the steady launch,\n" +
			"   what a miss stores after the work and the process's wall time (medians in ms). The miss line\n" +
			"   gives a first run's cost against --no-cache and after how many runs it is repaid; the verdict\n" +
			"   says which cache saves what on the device, and is recorded in the clmeter cache folder for\n" +
			"   'clmeter doctor' and 'clmeter cache stats'. A FILE.cl is launched (its first kernel by name)\n" +
			"   only when every argument is a global buffer or an integer. -o writes a result file (kind\n" +
			"   cache-bench; 'clmeter report --format html' draws a stacked bar per mode).",
		Flags: []cli.Flag{
			deviceFlag,
			&cli.IntFlag{Name: "trials", Aliases: []string{"n"}, Value: 5, Usage: "fresh processes per mode"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the result file here (JSON)"},
		},
		Action: func(c *cli.Context) error {
			if err := checkOutput(c); err != nil {
				return err
			}
			return cachebench.Run(c.Context, cachebench.Options{
				Programs: c.Args().Slice(), Trials: c.Int("trials"), Device: c.String("device"),
				Output: c.String("output"), Tool: toolInfo(), Args: recordedCommand(c), SavingsDir: env.cacheDir(),
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
			&cli.StringFlag{Name: "program"},
			&cli.StringFlag{Name: "device"},
			&cli.StringFlag{Name: "nonce"},
			&cli.StringFlag{Name: "launch"},
			&cli.BoolFlag{Name: "probe"},
		},
		Action: func(c *cli.Context) error {
			if c.String("program") == "" {
				return usageErr("'clmeter cache bench-child' needs --program")
			}
			if c.Bool("probe") {
				return cachebench.Probe(c.String("program"), c.String("device"), c.App.Writer, c.App.ErrWriter)
			}
			return cachebench.Child(c.String("program"), c.String("device"), c.String("nonce"), c.String("launch"), env.cacheConfig(), c.App.Writer, c.App.ErrWriter)
		},
	}
}
