package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/runner"
)

var reportFormats = append(append([]string{}, report.Formats...), "md", "html")

func init() {
	register(&cli.Command{
		Name:      "report",
		Usage:     "render result files as a table, markdown, CSV, JSON, Go benchmark format or HTML with plots",
		ArgsUsage: "FILE.json...",
		Description: "Reads one or many result files (several devices or machines), groups the benchmarks by\n" +
			"   name, parameters and device, and adds a geomean row per device.\n\n" +
			"   Formats: table (default), markdown, csv, json, benchfmt (the Go benchmark format that\n" +
			"   golang.org/x/perf/cmd/benchstat reads: one line per sample, sec/op and B/s), html (one\n" +
			"   self-contained file with SVG plots: sample distributions, throughput against a swept\n" +
			"   parameter, suite peaks).\n\n" +
			"   Two devices of one name (two identical GPUs) are told apart by their keys: the device\n" +
			"   column reads \"NVIDIA H200 [uuid 1a2b3c4d]\" (UUID, else host and PCI address, else host\n" +
			"   and index), and CSV and JSON give each row's device_key.\n\n" +
			"   When the files hold several devices, the node view follows (as after 'suite' on several):\n" +
			"   one row per benchmark, one column per device, a device worse than the median of its peers\n" +
			"   (same model) by more than --outlier-tolerance and outside its noise marked '!'; in HTML a\n" +
			"   section; with JSON, CSV or benchfmt only its summary line, on stderr.\n\n" +
			"   A file that cannot be read is named on stderr with the reason; the others are still\n" +
			"   reported and the exit status is 1.\n\n" +
			"   Examples:\n" +
			"     clmeter report results.json\n" +
			"     clmeter report --format html -o report.html pocl.json h200.json\n" +
			"     clmeter report --format benchfmt old.json > old.txt   # then: benchstat old.txt new.txt",
		Flags: append([]cli.Flag{
			formatFlag(reportFormats...),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report here instead of stdout"},
		}, nodeViewFlags...),
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, reportFormats...)
			if err != nil {
				return err
			}
			if c.NArg() == 0 {
				return usageErr("'clmeter report' needs at least one result file")
			}
			if err := checkOutput(c); err != nil {
				return err
			}
			nv, err := nodeViewOptions(c)
			if err != nil {
				return err
			}
			return runner.Report(c.Context, runner.ReportOptions{Files: c.Args().Slice(), Format: format, Output: c.String("output"), NodeViewOptions: nv}, c.App.Writer, c.App.ErrWriter)
		},
	})
}
