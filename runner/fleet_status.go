package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/fail"
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
	Missing []missingShard    `json:"missing"`
}

// A missingShard is a shard of which the store holds no upload, with the
// commands that run it into the fleet run.
type missingShard struct {
	Shard, Shards int
	Command       string
	Sbatch        string `json:",omitempty"`
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
		s.Missing = append(s.Missing, rerunShard(tasks, k))
	}
	if o.Format == "json" {
		return writeIndentedJSON(stdout, s)
	}
	return writeFleetStatus(stdout, s)
}

// rerunShard is missing shard k: the command of a task of the run with its
// shard, run and result file set for k.
func rerunShard(tasks []store.FleetTask, k int) missingShard {
	t := tasks[0]
	for _, c := range tasks {
		if c.Shards > 0 && c.Latest {
			t = c
			break
		}
	}
	m := missingShard{Shard: k, Shards: t.Shards}
	var args []string
	for i := 0; i < len(t.Command); i++ {
		switch a := t.Command[i]; {
		case slices.Contains([]string{"--shard", "--shards", "--fleet-run", "-o", "--output"}, a) && i+1 < len(t.Command):
			i++
		case strings.HasPrefix(a, "--shard=") || strings.HasPrefix(a, "--shards=") || strings.HasPrefix(a, "--fleet-run=") ||
			strings.HasPrefix(a, "-o=") || strings.HasPrefix(a, "--output="):
		default:
			args = append(args, a)
		}
	}
	args = append(args, "--shard", fmt.Sprintf("%d/%d", k, t.Shards), "--fleet-run", t.Run, "-o", fmt.Sprintf("clmeter-%s-%d-rerun.json", t.Run, k))
	m.Command = shellWords(args)
	if t.Scheduler == "slurm" {
		m.Sbatch = fmt.Sprintf("sbatch --array=%d --export=ALL,CLMETER_FLEET_RUN=%s SCRIPT", k, shellQuote(t.Run))
	}
	return m
}

// shellWords quotes each word for a shell.
func shellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellQuote(w)
	}
	return strings.Join(out, " ")
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
