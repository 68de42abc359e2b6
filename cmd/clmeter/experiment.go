package main

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/clkernels"
)

// The experiments' fresh processes: 'clmeter suite coldstart' re-executes
// clmeter as 'clmeter suite-child coldstart --device REF [--small]', which
// starts OpenCL from nothing, times the ten sizes and prints one JSON line.
func init() {
	register(&cli.Command{
		Name:      clkernels.ColdStartChildCommand[0],
		Usage:     "one fresh process of the coldstart experiment (internal): prints one JSON line",
		ArgsUsage: clkernels.SuiteColdStart,
		Hidden:    true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Usage: "the device, as platform:device"},
			&cli.BoolFlag{Name: "small", Usage: "the small sizes"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || c.Args().First() != clkernels.ColdStartChildCommand[1] {
				return usageErr("suite-child takes one experiment: %s", clkernels.ColdStartChildCommand[1])
			}
			r, err := clkernels.RunColdStartChild(c.Context, c.String("device"), c.Bool("small"))
			if err != nil {
				return err
			}
			return json.NewEncoder(c.App.Writer).Encode(r)
		},
	})
}
