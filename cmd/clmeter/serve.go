package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/dashboard"
)

func init() {
	register(&cli.Command{
		Name:  "serve",
		Usage: "a web dashboard over the results store (read-only)",
		Description: "Serves the devices and benchmarks stored, each benchmark's trend with its 95% CI band and\n" +
			"   change points, device-vs-device and driver-vs-driver comparisons, and each run's samples\n" +
			"   and metadata. It listens on localhost unless --addr says otherwise (':8080' is every\n" +
			"   interface) and never writes to the store. Ctrl-C stops it.",
		Flags: []cli.Flag{
			storeFlag,
			&cli.StringFlag{Name: "addr", Value: dashboard.DefaultAddr, Usage: "address to listen on"},
			&cli.StringFlag{Name: "threshold", Value: "5%", Usage: "changes larger than this are marked as regressions or improvements"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			threshold, err := parsePercent(c.String("threshold"))
			if err != nil || threshold <= 0 {
				return usageErr("--threshold %q: want a positive percentage such as 5%%", c.String("threshold"))
			}
			err = dashboard.Serve(c.Context, dashboard.Options{Addr: c.String("addr"), Store: c.String("store"), Threshold: threshold},
				c.App.Writer, c.App.ErrWriter)
			if err == nil && c.Context.Err() != nil {
				return stopped("the dashboard stopped (interrupt)")
			}
			return err
		},
	})
}
