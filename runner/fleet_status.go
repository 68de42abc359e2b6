package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/fleetview"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// FleetStatusOptions are what 'clmeter fleet status' was asked: the store,
// the fleet run and the format ("table" or "json").
type FleetStatusOptions struct {
	Store, Run, Format string
}

// A fleetStatus is one fleet run's tasks and what is missing, as JSON.
type fleetStatus struct {
	Run     string            `json:"run"`
	Tasks   []store.FleetTask `json:"tasks"`
	Missing []fleetview.Slot  `json:"missing"`
}

// FleetStatus prints fleet run o.Run's tasks: every attempt of each shard or
// node, the latest marked, and each missing shard with the command that
// runs it.
func FleetStatus(ctx context.Context, o FleetStatusOptions, stdout io.Writer) error {
	st, err := store.Open(ctx, o.Store, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	tasks, err := st.FleetTasks(ctx, o.Run)
	if err != nil {
		return err
	}
	if len(tasks) == 0 {
		return fail.Usagef("fleet run %q: the store %s holds no task of it (the run is --fleet-run, else the scheduler's job id)", o.Run, store.RedactLocation(o.Store))
	}
	s := fleetStatus{Run: o.Run, Tasks: tasks}
	for _, k := range store.MissingShards(tasks) {
		s.Missing = append(s.Missing, fleetview.Rerun(tasks, k))
	}
	if o.Format == "json" {
		return writeIndentedJSON(stdout, s)
	}
	return writeFleetStatus(stdout, s)
}

func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeFleetStatus prints the tasks' table and the missing shards.
func writeFleetStatus(w io.Writer, s fleetStatus) error {
	shards := 0
	for _, t := range s.Tasks {
		shards = max(shards, t.Shards)
	}
	fmt.Fprintf(w, "fleet run %s: %d task row(s)", units.Escape(s.Run), len(s.Tasks))
	if shards > 0 {
		fmt.Fprintf(w, ", %d shard(s), %d missing", shards, len(s.Missing))
	}
	fmt.Fprintln(w)
	tb := table.New(table.Column{Header: "SLOT"}, table.Column{Header: "NODE"}, table.Column{Header: "ATTEMPT", Right: true},
		table.Column{Header: "LATEST"}, table.Column{Header: "FAILED", Right: true}, table.Column{Header: "UPLOAD", Right: true},
		table.Column{Header: "STARTED", Drop: 1}, table.Column{Header: "DEVICE", Wrap: true, Drop: 2})
	for _, t := range s.Tasks {
		slot := "-"
		if t.Shards > 0 {
			slot = fmt.Sprintf("%d/%d", t.Shard, t.Shards)
		}
		latest := "superseded"
		if t.Latest {
			latest = "latest"
		}
		tb.Row(slot, t.Node, fmt.Sprint(t.Attempt), latest, fmt.Sprint(t.Failed), fmt.Sprint(t.UploadID),
			t.Created.Format("2006-01-02 15:04:05"), t.DeviceKey)
	}
	if err := tb.Write(w, table.Width(w)); err != nil {
		return err
	}
	for _, m := range s.Missing {
		fmt.Fprintf(w, "missing shard %d/%d: run it with\n  %s\n", m.Shard, m.Shards, units.Escape(m.Command))
		if m.Sbatch != "" {
			fmt.Fprintf(w, "  or, with the script of 'clmeter fleet slurm': %s\n", units.Escape(m.Sbatch))
		}
	}
	return nil
}
