package runner

import (
	"fmt"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
)

// outlierTolerance is o's tolerance of the outlier rule: the default when
// not set.
func outlierTolerance(o SuiteOptions) float64 {
	if o.OutlierTolerance == 0 {
		return peers.DefaultTolerance
	}
	return o.OutlierTolerance
}

// checkNodeView refuses, before anything is measured, a tolerance the
// outlier rule cannot use (a negative one; 0 stands for the default here,
// and the command refuses a 0 given by the user).
func checkNodeView(o SuiteOptions) error {
	if err := peers.CheckTolerance(outlierTolerance(o)); err != nil {
		return fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	return nil
}

// writeNodeView prints the node view of a run on several devices (more than
// one device key in file): every benchmark across the devices, the slow
// ones flagged by the outlier rule (package peers). As a table or markdown
// it follows the report on stdout; with JSON or CSV, whose stdout is one
// document, its summary line goes to stderr. With o.FailOnOutlier a flagged
// device is an error of kind fail.Outlier, naming it and its benchmarks.
func writeNodeView(stdout, stderr io.Writer, o SuiteOptions, file *results.File) error {
	if peers.Keys(file.Benchmarks) < 2 {
		if o.FailOnOutlier && len(file.Benchmarks) > 0 {
			fmt.Fprintln(stderr, "clmeter: --fail-on-outlier: one device measured, so no peer to compare it with; select several (--device gpu, all or a list)")
		}
		return nil
	}
	v, err := peers.Build(file.Benchmarks, outlierTolerance(o))
	if err != nil {
		return fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	switch o.Format {
	case "json", "csv":
		_, err = fmt.Fprintf(stderr, "clmeter: node view: %s\n", v.Summary())
	case "markdown", "md":
		fmt.Fprintln(stdout)
		err = v.WriteMarkdown(stdout)
	default:
		width := table.Width(stdout)
		fmt.Fprintln(stdout)
		table.WriteWrapped(stdout, fmt.Sprintf("== node view: %s on %d devices", o.Suite, len(v.Devices)), width, "", "   ")
		err = v.WriteTable(stdout, width)
	}
	if err != nil {
		return err
	}
	if o.FailOnOutlier {
		return fail.With(fail.Outlier, v.Err())
	}
	return nil
}
