package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/runner"
)

// nodeViewFlags are the flags of the node view (several devices side by
// side, the slow one flagged), shared by suite and report.
var nodeViewFlags = []cli.Flag{
	&cli.StringFlag{Name: "outlier-tolerance", Value: "5%", Usage: "with several devices, flag one whose figure is worse than the median of its peers of the same model by more than this (5%, 0.05; above 0) and outside its noise"},
	&cli.BoolFlag{Name: "fail-on-outlier", Usage: "exit with status 6 when the node view flags a device (several devices; fleet view: across nodes)"},
}

// nodeViewOptions reads nodeViewFlags.
func nodeViewOptions(c *cli.Context) (runner.NodeViewOptions, error) {
	tol, err := outlierTolerance(c)
	return runner.NodeViewOptions{OutlierTolerance: tol, FailOnOutlier: c.Bool("fail-on-outlier")}, err
}

// outlierTolerance reads --outlier-tolerance: a percentage ("5%") or a
// fraction (0.05), above 0 and below 100%.
func outlierTolerance(c *cli.Context) (float64, error) {
	s := c.String("outlier-tolerance")
	tol, err := parsePercent(s)
	if err == nil {
		err = peers.CheckTolerance(tol)
	}
	if err != nil {
		return 0, usageErr("--outlier-tolerance %s: %v", s, err)
	}
	return tol, nil
}
