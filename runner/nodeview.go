package runner

import (
	"fmt"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
)

// NodeViewOptions are how a node view (the benchmarks of several devices
// side by side, package peers) judges the devices: 'suite' after a run on
// several, 'report' over files that hold several.
type NodeViewOptions struct {
	// OutlierTolerance is the outlier rule's tolerance, a fraction (0:
	// peers.DefaultTolerance, 5%).
	OutlierTolerance float64
	// FailOnOutlier makes a flagged device an error of kind fail.Outlier.
	FailOnOutlier bool
}

// tolerance is the tolerance of the outlier rule: the default when not set.
func (o NodeViewOptions) tolerance() float64 {
	if o.OutlierTolerance == 0 {
		return peers.DefaultTolerance
	}
	return o.OutlierTolerance
}

// check refuses, before anything is done, a tolerance the outlier rule
// cannot use (a negative one; 0 stands for the default here, and the
// command refuses a 0 given by the user).
func (o NodeViewOptions) check() error {
	if err := peers.CheckTolerance(o.tolerance()); err != nil {
		return fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	return nil
}

// build lays bs out side by side when they come from more than one device
// (device key); nil when they come from one. With o.FailOnOutlier and one
// device, a line on stderr says that there is nothing to compare it with
// (fix says what to do).
func (o NodeViewOptions) build(bs []results.Benchmark, stderr io.Writer, fix string) (*peers.View, error) {
	if peers.Keys(bs) < 2 {
		if o.FailOnOutlier && len(bs) > 0 {
			fmt.Fprintf(stderr, "clmeter: --fail-on-outlier: one device, so no peer to compare it with; %s\n", fix)
		}
		return nil, nil
	}
	v, err := peers.Build(bs, o.tolerance())
	if err != nil {
		return nil, fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	return v, nil
}

// verdict is, with o.FailOnOutlier, an error of kind fail.Outlier naming the
// devices v flags and their benchmarks; nil otherwise, or without a view.
func (o NodeViewOptions) verdict(v *peers.View) error {
	if v == nil || !o.FailOnOutlier {
		return nil
	}
	return fail.With(fail.Outlier, v.Err())
}

// printNodeView prints v (nil: nothing) after a report in format: as a
// table under a heading naming what it covers, or as markdown, on stdout;
// with JSON, CSV, benchfmt or HTML, whose stdout is one document (the HTML
// report holds the view itself), its summary line goes to stderr.
func printNodeView(stdout, stderr io.Writer, v *peers.View, what, format string) error {
	if v == nil {
		return nil
	}
	switch format {
	case "json", "csv", "benchfmt", "html":
		_, err := fmt.Fprintf(stderr, "clmeter: node view: %s\n", v.Summary())
		return err
	case "markdown", "md":
		fmt.Fprintln(stdout)
		return v.WriteMarkdown(stdout)
	}
	width := table.Width(stdout)
	fmt.Fprintln(stdout)
	table.WriteWrapped(stdout, fmt.Sprintf("== node view: %s on %d devices", what, len(v.Devices)), width, "", "   ")
	return v.WriteTable(stdout, width)
}

// nodeView is o's NodeViewOptions.
func (o SuiteOptions) nodeView() NodeViewOptions { return o.NodeViewOptions }

// checkNodeView refuses, before anything is measured, a tolerance the
// outlier rule cannot use.
func checkNodeView(o SuiteOptions) error { return o.nodeView().check() }

// writeNodeView prints the node view of a run on several devices (more than
// one device key in file): every benchmark across the devices, the slow
// ones flagged by the outlier rule (package peers), after the report on
// stdout (printNodeView). With o.FailOnOutlier a flagged device is an error
// of kind fail.Outlier, naming it and its benchmarks.
func writeNodeView(stdout, stderr io.Writer, o SuiteOptions, file *results.File) error {
	nv := o.nodeView()
	v, err := nv.build(file.Benchmarks, stderr, "one device measured, so no peer to compare it with; select several (--device gpu, all or a list)")
	if err != nil {
		return err
	}
	if err := printNodeView(stdout, stderr, v, o.Suite, o.Format); err != nil {
		return err
	}
	return nv.verdict(v)
}
