package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/results"
)

var reportFormats = append(append([]string{}, results.ReportFormats...), "html")

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
			"   A file that cannot be read is named on stderr with the reason; the others are still\n" +
			"   reported and the exit status is 1.\n\n" +
			"   Examples:\n" +
			"     clmeter report results.json\n" +
			"     clmeter report --format html -o report.html pocl.json h200.json\n" +
			"     clmeter report --format benchfmt old.json > old.txt   # then: benchstat old.txt new.txt",
		Flags: []cli.Flag{
			formatFlag(reportFormats...),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report here instead of stdout"},
		},
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, reportFormats...)
			if err != nil {
				return err
			}
			if c.NArg() == 0 {
				return usageErr("'clmeter report' needs at least one result file")
			}
			return runReport(c.Context, reportOptions{Files: c.Args().Slice(), Format: format, Output: c.String("output")}, c.App.Writer, c.App.ErrWriter)
		},
	})
}

type reportOptions struct {
	Files  []string
	Format string
	Output string
}

// readResultFiles reads paths, printing one line per bad file on stderr; it
// fails only when no file could be read. bad counts the files left out.
func readResultFiles(paths []string, stderr io.Writer) (srcs []results.Source, bad int, err error) {
	srcs, errs := results.ReadFiles(paths)
	for _, e := range errs {
		fmt.Fprintf(stderr, "clmeter: skipping %v\n", e)
	}
	if len(srcs) == 0 {
		return nil, len(errs), fmt.Errorf("no result file could be read (%d given)", len(paths))
	}
	return srcs, len(errs), nil
}

func runReport(ctx context.Context, opts reportOptions, stdout, stderr io.Writer) error {
	srcs, bad, err := readResultFiles(opts.Files, stderr)
	if err != nil {
		return err
	}
	r := results.NewReport(srcs)
	w := stdout
	var f *os.File
	if opts.Output != "" {
		if f, err = os.Create(opts.Output); err != nil {
			return err
		}
		w = f
	}
	err = results.WriteReport(w, r, opts.Format)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			fmt.Fprintf(stderr, "clmeter: wrote %s (%d benchmarks from %d files)\n", opts.Output, len(r.Rows), len(srcs))
		}
	}
	if err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d result files could not be read (see above); the report holds the other %d", bad, len(opts.Files), len(srcs))
	}
	return nil
}
