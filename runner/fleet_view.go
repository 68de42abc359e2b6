package runner

import (
	"context"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/fleetview"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
)

// FleetViewOptions are what 'clmeter fleet view' was asked: the store, the
// fleet run, the format ("table", "json" or "markdown") and how the
// devices are judged.
type FleetViewOptions struct {
	Store, Run, Format string
	NodeViewOptions
}

// FleetView prints fleet run o.Run (package fleetview): its shards and
// nodes, present, missing or failed, the command that reruns a missing
// shard, and per benchmark every node's devices side by side, the slow ones
// flagged; latest attempts only. With o.FailOnOutlier a flagged device is
// an error of kind fail.Outlier, after the view is printed.
func FleetView(ctx context.Context, o FleetViewOptions, stdout io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	st, err := store.Open(ctx, o.Store, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := fleetview.Build(ctx, st, o.Run, o.tolerance())
	if err != nil {
		return err
	}
	switch o.Format {
	case "json":
		err = v.WriteJSON(stdout)
	case "markdown", "md":
		err = v.WriteMarkdown(stdout)
	default:
		err = v.WriteTable(stdout, table.Width(stdout))
	}
	if err != nil || !o.FailOnOutlier {
		return err
	}
	return fail.With(fail.Outlier, v.Err())
}
