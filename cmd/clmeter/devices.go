package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
)

func init() {
	register(&cli.Command{
		Name:  "devices",
		Usage: "list OpenCL platforms and devices with their key figures",
		Description: "Lists every device of every platform the ICD loader finds, with the index that\n" +
			"   --device takes. -v shows every figure; --format json is for programs (an empty list is []).",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show every figure of each device"},
			formatFlag("table", "json"),
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format, err := checkFormat(c, "table", "json")
			if err != nil {
				return err
			}
			return runtime.ListDevices(c.Context, runtime.ListOptions{Verbose: c.Bool("verbose"), Format: format, Width: table.Width(c.App.Writer)}, c.App.Writer)
		},
	})
}
