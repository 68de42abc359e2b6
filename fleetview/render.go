package fleetview

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// Headline says in one line what the run holds: its shards (present,
// missing, failed) or tasks, its nodes and the attempts not counted.
func (v *View) Headline() string {
	count := map[string]int{}
	for _, s := range v.Slots {
		count[s.State]++
	}
	what := fmt.Sprintf("%d task(s)", len(v.Slots))
	if v.Shards > 0 {
		what = fmt.Sprintf("%d shard(s)", v.Shards)
	}
	out := fmt.Sprintf("fleet run %s: %s: %d present, %d missing, %d failed; %d node(s), %d device column(s)", v.Run, what,
		count["ok"]+count["failed"], count["missing"], count["failed"], len(v.Nodes), len(v.Columns))
	if v.Superseded > 0 {
		out += fmt.Sprintf("; %d earlier attempt(s) superseded by a retry, not counted", v.Superseded)
	}
	return out
}

// WriteJSON writes the view as indented JSON.
func (v *View) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// slotCells are the cells of the slots' table: slot, state, node, attempt,
// superseded attempts, failed benchmarks.
func (v *View) slotCells() [][]string {
	var out [][]string
	for _, s := range v.Slots {
		slot := "device " + results.ShortKey(strings.TrimPrefix(s.Slot, "node "+s.Node+" device "))
		if s.Shards > 0 {
			slot = fmt.Sprintf("%d/%d", s.Shard, s.Shards)
		}
		attempt := "-"
		if s.State != "missing" {
			attempt = fmt.Sprint(s.Attempt)
		}
		out = append(out, []string{slot, s.State, cmpOr(s.Node, "-"), attempt, fmt.Sprint(s.Superseded), fmt.Sprint(s.Failed)})
	}
	return out
}

var slotHeads = []string{"SLOT", "STATE", "NODE", "ATTEMPT", "SUPERSEDED", "FAILED"}

// nodeCells are the cells of the nodes' table: name, host, devices, slots,
// failed benchmarks.
func (v *View) nodeCells() [][]string {
	var out [][]string
	for _, n := range v.Nodes {
		shards := strings.Join(n.Shards, ", ")
		if shards == "" {
			shards = "all"
		}
		out = append(out, []string{n.Name, n.Host, fmt.Sprint(len(n.Devices)), shards, fmt.Sprint(n.Failed)})
	}
	return out
}

var nodeHeads = []string{"NODE", "HOST", "DEVICES", "SHARDS", "FAILED"}

// WriteTable writes the view as tables fitted to width: the headline, the
// slots, the nodes, the rerun command of each missing shard, the matrix of
// benchmarks by node and device (several tables when the columns do not
// fit side by side) and the history command of each column.
func (v *View) WriteTable(w io.Writer, width int) error {
	ew := &table.ErrWriter{W: w}
	table.WriteWrapped(ew, v.Headline(), width, "", "  ")
	fmt.Fprintln(ew)
	st := table.New(table.Column{Header: slotHeads[0], Wrap: true}, table.Column{Header: slotHeads[1]}, table.Column{Header: slotHeads[2]},
		table.Column{Header: slotHeads[3], Right: true}, table.Column{Header: slotHeads[4], Right: true, Drop: 1}, table.Column{Header: slotHeads[5], Right: true})
	for _, c := range v.slotCells() {
		st.Row(c...)
	}
	st.Write(ew, width)
	fmt.Fprintln(ew)
	nt := table.New(table.Column{Header: nodeHeads[0]}, table.Column{Header: nodeHeads[1], Drop: 1}, table.Column{Header: nodeHeads[2], Right: true},
		table.Column{Header: nodeHeads[3], Wrap: true}, table.Column{Header: nodeHeads[4], Right: true})
	for _, c := range v.nodeCells() {
		nt.Row(c...)
	}
	nt.Write(ew, width)
	for _, s := range v.Slots {
		if s.State != "missing" {
			continue
		}
		fmt.Fprintf(ew, "\nmissing shard %d/%d: run it with\n", s.Shard, s.Shards)
		table.WriteWrapped(ew, units.Escape(s.Command), width, "  ", "    ")
		if s.Sbatch != "" {
			table.WriteWrapped(ew, "or, with the script of 'clmeter fleet slurm': "+units.Escape(s.Sbatch), width, "  ", "    ")
		}
	}
	fmt.Fprintln(ew)
	table.WriteWrapped(ew, fmt.Sprintf("== benchmarks side by side: %d device(s) on %d node(s), latest attempts only", len(v.Columns), len(v.Nodes)), width, "", "   ")
	if err := v.Matrix.WriteTable(ew, width); err != nil {
		return err
	}
	v.writeHistory(ew, width)
	return ew.Err
}

// writeHistory writes the command that shows each column's device across
// runs and drivers.
func (v *View) writeHistory(w io.Writer, width int) {
	if len(v.Columns) == 0 {
		return
	}
	fmt.Fprintln(w)
	table.WriteWrapped(w, "one device's history across runs and drivers, with its change points (add --store as above):", width, "", "  ")
	for _, c := range v.Columns {
		table.WriteWrapped(w, units.Escape(c.Label)+": "+units.Escape(c.History), width, "  ", "    ")
	}
}

// WriteMarkdown writes the view as GitHub-flavoured markdown: the
// headline, the slots' and nodes' tables, the rerun commands, the matrix
// (peers.View.WriteMarkdown) and the history commands.
func (v *View) WriteMarkdown(w io.Writer) error {
	ew := &table.ErrWriter{W: w}
	fmt.Fprintf(ew, "# Fleet run %s\n\n%s\n\n", mdEscape(v.Run), mdEscape(v.Headline()))
	mdTable(ew, slotHeads, v.slotCells())
	fmt.Fprintln(ew)
	mdTable(ew, nodeHeads, v.nodeCells())
	for _, s := range v.Slots {
		if s.State == "missing" {
			fmt.Fprintf(ew, "\nMissing shard %d/%d: run it with\n\n```\n%s\n```\n", s.Shard, s.Shards, units.Escape(s.Command))
			if s.Sbatch != "" {
				fmt.Fprintf(ew, "\nor, with the script of `clmeter fleet slurm`:\n\n```\n%s\n```\n", units.Escape(s.Sbatch))
			}
		}
	}
	fmt.Fprintln(ew)
	if err := v.Matrix.WriteMarkdown(ew); err != nil {
		return err
	}
	if len(v.Columns) > 0 {
		fmt.Fprintf(ew, "\nOne device's history across runs and drivers, with its change points:\n\n")
		for _, c := range v.Columns {
			fmt.Fprintf(ew, "- %s: `%s`\n", mdEscape(c.Label), units.Escape(c.History))
		}
	}
	return ew.Err
}

// mdTable writes a markdown table of heads and rows, every cell escaped.
func mdTable(w io.Writer, heads []string, rows [][]string) {
	row := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = mdEscape(c)
		}
		fmt.Fprintln(w, "| "+strings.Join(out, " | ")+" |")
	}
	row(heads)
	fmt.Fprintln(w, "|"+strings.Repeat(" --- |", len(heads)))
	for _, r := range rows {
		row(r)
	}
}

// mdEscape makes text from the store safe in markdown: control characters
// escaped and the characters markdown reads escaped.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", "`", "\\`").Replace(units.Escape(s))
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
