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
			"   and metadata. It listens on 127.0.0.1 unless --addr says otherwise, answers only its own\n" +
			"   host names (localhost, 127.0.0.1, [::1], the --addr host; 421 for others) and never writes\n" +
			"   to the store. An --addr beyond loopback (':8080' or '0.0.0.0:8080' is every interface)\n" +
			"   needs --public. Ctrl-C stops it.",
		Flags: []cli.Flag{
			storeFlag,
			&cli.StringFlag{Name: "addr", Value: dashboard.DefaultAddr, Usage: "address to listen on"},
			&cli.BoolFlag{Name: "public", Usage: "allow an --addr beyond this machine (every interface, a network address): anyone who reaches it can read the store"},
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
			err = dashboard.Serve(c.Context, dashboard.Options{Addr: c.String("addr"), Store: c.String("store"), Threshold: threshold, Public: c.Bool("public")},
				c.App.Writer, c.App.ErrWriter)
			if err == nil && c.Context.Err() != nil {
				return stopped("the dashboard stopped (interrupt)")
			}
			return err
		},
	})
}
