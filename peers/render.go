package peers

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// flagMark follows a flagged figure in the table and in markdown.
const flagMark = "!"

// maxListed is how many benchmarks the summary names for one device.
const maxListed = 3

// Describe names a device for people: its name, its PCI address (else its
// index), its UUID and, when set, its host:
// "NVIDIA H200 0000:19:00.0 uuid 3f2a... index 0:0 host n1".
func Describe(d Device) string {
	parts := []string{d.Model}
	if d.Info.PCI != "" {
		parts = append(parts, d.Info.PCI)
	}
	if d.Info.UUID != "" {
		parts = append(parts, "uuid "+d.Info.UUID)
	}
	if d.Info.Index != "" {
		parts = append(parts, "index "+d.Info.Index)
	}
	if d.Info.Host != "" {
		parts = append(parts, "host "+d.Info.Host)
	}
	return strings.Join(parts, " ")
}

// brief names a device in the summary: its label, model and PCI address
// (else index).
func brief(d Device) string {
	where := d.Info.PCI
	if where == "" {
		where = d.Info.Index
	}
	if d.Info.Host != "" {
		where = strings.TrimSpace(d.Info.Host + " " + where)
	}
	return strings.TrimSpace(fmt.Sprintf("%s (%s %s", d.Label, d.Model, where)) + ")"
}

// Summary says in one line which devices are slow on which benchmarks,
// that none is, or why none can be judged.
func (v *View) Summary() string {
	if len(v.Outliers) == 0 {
		if !v.judged() {
			return "no outlier can be judged: no model has two devices with a figure of the same benchmark"
		}
		return fmt.Sprintf("no outlier: no device is worse than the median of its peers of the same model by more than %s outside its noise", units.Percent(v.Tolerance))
	}
	var order []string
	by := map[string][]Outlier{}
	for _, o := range v.Outliers {
		if _, ok := by[o.Device]; !ok {
			order = append(order, o.Device)
		}
		by[o.Device] = append(by[o.Device], o)
	}
	var parts []string
	for _, label := range order {
		var names []string
		for i, o := range by[label] {
			if i == maxListed {
				names = append(names, fmt.Sprintf("and %d more", len(by[label])-maxListed))
				break
			}
			names = append(names, fmt.Sprintf("%s (%s worse)", v.name(o.Benchmark, o.Params), units.Percent(o.Worse)))
		}
		parts = append(parts, brief(v.Devices[v.index(label)])+" on "+strings.Join(names, ", "))
	}
	return fmt.Sprintf("slow: %s; worse than the median of the peers of its model by more than %s, outside its noise", strings.Join(parts, "; "), units.Percent(v.Tolerance))
}

// name names a benchmark in the summary and the notes: its name, with its
// parameters when another row has the same name.
func (v *View) name(name, params string) string {
	n := 0
	for _, r := range v.Rows {
		if r.Name == name {
			n++
		}
	}
	if n > 1 && params != "" {
		return name + " " + params
	}
	return name
}

// peersOf is "its peer's" or "its 3 peers'".
func peersOf(n int) string {
	if n == 1 {
		return "its peer's"
	}
	return fmt.Sprintf("its %d peers'", n)
}

// index is the position of the device labelled label.
func (v *View) index(label string) int {
	for i, d := range v.Devices {
		if d.Label == label {
			return i
		}
	}
	return 0
}

// judged reports whether any cell was compared with a peer.
func (v *View) judged() bool {
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			if c != nil && c.Peers > 0 {
				return true
			}
		}
	}
	return false
}

// WriteJSON writes the view as indented JSON.
func (v *View) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// shownRow is a row as the table and markdown show it: its label, the unit
// shown and each device's figure scaled to it.
type shownRow struct {
	group, item, unit string
	cells             []string
}

// shown scales the rows of each group to one unit (units.Scale at the
// median of their figures) and splits its name into a group ("peaks/bandwidth") and an
// item ("stride/float4"); parameters join the item when several rows share
// a name.
func (v *View) shown(mark string) []shownRow {
	names := map[string]int{}
	for _, r := range v.Rows {
		names[r.Name]++
	}
	groupRef := refs(v.Rows, func(r Row) string { g, _ := split(r.Name); return g + "\x00" + r.Unit })
	rowRef := refs(v.Rows, func(r Row) string { return r.Label() })
	out := make([]shownRow, len(v.Rows))
	for i, r := range v.Rows {
		g, _ := split(r.Name)
		// The group's scale, unless it would write this row's figures
		// below 0.1 ("0.00"): then the row's own.
		mult, unit := units.Scale(groupRef[g+"\x00"+r.Unit], r.Unit)
		if ref := rowRef[r.Label()]; ref*mult < 0.1 {
			mult, unit = units.Scale(ref, r.Unit)
		}
		s := shownRow{unit: unit, cells: make([]string, len(r.Cells))}
		s.group, s.item = split(r.Name)
		if names[r.Name] > 1 && r.Params != "" {
			s.item = strings.TrimSpace(s.item + " " + r.Params)
		}
		for d, c := range r.Cells {
			switch {
			case c == nil:
			case !c.usable():
				s.cells[d] = "-"
			default:
				s.cells[d] = units.Sig3(c.Value * mult)
				if c.Flagged {
					s.cells[d] += mark
				}
			}
		}
		out[i] = s
	}
	return out
}

// refs is the median of the figures of the rows of each key.
func refs(rows []Row, key func(Row) string) map[string]float64 {
	vals := map[string][]float64{}
	for _, r := range rows {
		for _, c := range r.Cells {
			if c.usable() {
				vals[key(r)] = append(vals[key(r)], c.Value)
			}
		}
	}
	out := map[string]float64{}
	for k, vs := range vals {
		out[k] = median(vs)
	}
	return out
}

// split cuts a benchmark's name into its group (all but the last two parts
// of a name of three or more, the first of two) and the rest.
func split(name string) (group, item string) {
	parts := strings.Split(name, "/")
	switch {
	case len(parts) >= 3:
		return strings.Join(parts[:len(parts)-2], "/"), strings.Join(parts[len(parts)-2:], "/")
	case len(parts) == 2:
		return parts[0], parts[1]
	}
	return "", name
}

// lines are the table's rows: a heading row for each run of rows of one
// group and unit ("peaks/bandwidth (GB/s)"), then its items, indented.
func lines(rows []shownRow) [][]string {
	var out [][]string
	prev := ""
	for _, r := range rows {
		head := r.group
		if r.unit != "" {
			head = strings.TrimSpace(head + " (" + r.unit + ")")
		}
		if head != prev {
			out = append(out, []string{head})
			prev = head
		}
		out = append(out, append([]string{"  " + r.item}, r.cells...))
	}
	return out
}

// chunks splits the device columns, headed by labels, into runs that fit
// width beside the benchmark column (at its natural width up to 24
// columns, or its longest word): one run when all fit, as for 8 devices at
// 80 columns.
func chunks(ls [][]string, labels []string, width int) [][2]int {
	label, word := 0, 0
	devices := len(labels)
	colw := make([]int, devices)
	for d := range colw {
		colw[d] = table.Len(labels[d])
	}
	for _, l := range ls {
		label = max(label, table.Len(l[0]))
		for _, f := range strings.Fields(l[0]) {
			word = max(word, table.Len(f)+2)
		}
		for d, c := range l[1:] {
			colw[d] = max(colw[d], table.Len(c))
		}
	}
	used := max(min(label, 24), word, len("BENCHMARK"))
	var out [][2]int
	start, w := 0, used
	for d := range colw {
		if d > start && w+2+colw[d] > width {
			out = append(out, [2]int{start, d})
			start, w = d, used
		}
		w += 2 + colw[d]
	}
	return append(out, [2]int{start, devices})
}

// WriteTable writes the view as tables fitted to width: one row per
// benchmark under a heading of its group and unit, one column per device
// (several tables when the devices do not fit side by side), flagged
// figures marked, then the key of the devices, the notes and the summary.
func (v *View) WriteTable(w io.Writer, width int) error {
	ew := &table.ErrWriter{W: w}
	ls := lines(v.shown(flagMark))
	if len(ls) == 0 {
		fmt.Fprintln(ew, "no sampled benchmark to compare")
	}
	labels := make([]string, len(v.Devices))
	for d := range v.Devices {
		labels[d] = v.Devices[d].Label
	}
	for i, ch := range chunks(ls, labels, width) {
		if len(ls) == 0 {
			break
		}
		if i > 0 {
			fmt.Fprintln(ew)
		}
		cols := []table.Column{{Header: "BENCHMARK", Wrap: true}}
		for _, d := range v.Devices[ch[0]:ch[1]] {
			cols = append(cols, table.Column{Header: d.Label, Right: true})
		}
		t := table.New(cols...)
		for _, l := range ls {
			cells := []string{l[0]}
			if len(l) > 1 {
				cells = append(cells, l[1+ch[0]:1+ch[1]]...)
			}
			t.Row(cells...)
		}
		t.Write(ew, width)
	}
	fmt.Fprintln(ew)
	for _, d := range v.Devices {
		table.WriteWrapped(ew, d.Label+" = "+Describe(d), width, "", "     ")
	}
	v.writeNotes(ew, width)
	fmt.Fprintln(ew)
	table.WriteWrapped(ew, v.Summary(), width, "", "  ")
	return ew.Err
}

// writeNotes writes the legend, the cells' notes and the view's.
func (v *View) writeNotes(w io.Writer, width int) {
	for _, n := range v.notes() {
		table.WriteWrapped(w, n, width, "", "  ")
	}
}

// notes are the legend of the marks, the cells' notes and the view's.
func (v *View) notes() []string {
	notes := []string{fmt.Sprintf("%s: worse than the median of its peers (the other devices of its model) by more than %s, and its confidence interval excludes that median; -: no figure", flagMark, units.Percent(v.Tolerance))}
	notes = append(notes, v.cellNotes()...)
	return append(notes, v.Notes...)
}

// cellNotes are the notes of the cells, "d1 on NAME: NOTE".
func (v *View) cellNotes() []string {
	var out []string
	for _, r := range v.Rows {
		for d, c := range r.Cells {
			if c == nil || c.Note == "" {
				continue
			}
			n := fmt.Sprintf("%s on %s: %s", v.Devices[d].Label, v.name(r.Name, r.Params), c.Note)
			if c.Peers > 0 {
				n = fmt.Sprintf("%s on %s: %s worse than %s median, but %s", v.Devices[d].Label, v.name(r.Name, r.Params), units.Percent(c.Worse), peersOf(c.Peers), c.Note)
			}
			out = append(out, n)
		}
	}
	return out
}

// A Grid is the view as its markdown and an HTML page show it: one row per
// benchmark with its unit, each device's figure scaled to it (as the
// table's), the key of the devices, the notes and the summary. Texts are
// raw: a renderer escapes them for its format.
type Grid struct {
	// Devices are the columns' labels ("d0", "d1" ...), Keys what each
	// stands for ("d0 = NVIDIA H200 0000:19:00.0 uuid ...": Describe).
	Devices []string
	Keys    []string
	Rows    []GridRow
	// Notes are the legend of the marks, the cells' notes and the view's.
	Notes   []string
	Summary string
	// Mark follows a flagged figure ("!"), as in the table.
	Mark string
}

// A GridRow is one benchmark of a Grid.
type GridRow struct {
	// Benchmark is its name and parameters, Unit the unit of its cells.
	Benchmark, Unit string
	// Cells holds one cell per device: its figure ("" where the device has
	// no such benchmark, "-" where it has no figure) and whether the
	// outlier rule flags it.
	Cells []GridCell
}

// A GridCell is one figure of a GridRow.
type GridCell struct {
	Text    string
	Flagged bool
}

// Grid lays the view out as markdown and HTML show it.
func (v *View) Grid() Grid {
	g := Grid{Notes: v.notes(), Summary: v.Summary(), Mark: flagMark}
	for _, d := range v.Devices {
		g.Devices = append(g.Devices, d.Label)
		g.Keys = append(g.Keys, d.Label+" = "+Describe(d))
	}
	for i, s := range v.shown("") {
		row := GridRow{Benchmark: v.Rows[i].Label(), Unit: s.unit}
		for d, c := range s.cells {
			cell := v.Rows[i].Cells[d]
			row.Cells = append(row.Cells, GridCell{Text: c, Flagged: cell != nil && cell.Flagged})
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// WriteMarkdown writes the view as a GitHub-flavoured markdown table (a
// unit column, flagged figures in bold and marked), the devices' key, the
// notes and the summary.
func (v *View) WriteMarkdown(w io.Writer) error {
	ew := &table.ErrWriter{W: w}
	g := v.Grid()
	fmt.Fprintln(ew, "## Devices side by side")
	fmt.Fprintln(ew)
	head, align := []string{"benchmark", "unit"}, []string{"---", "---"}
	for _, d := range g.Devices {
		head, align = append(head, d), append(align, "--:")
	}
	mdRow(ew, head, false)
	mdRow(ew, align, true)
	for _, r := range g.Rows {
		cells := []string{r.Benchmark, r.Unit}
		for _, c := range r.Cells {
			t := c.Text
			if c.Flagged {
				t = "**" + t + " " + g.Mark + "**"
			}
			cells = append(cells, t)
		}
		mdRow(ew, cells, true)
	}
	fmt.Fprintln(ew)
	for _, k := range g.Keys {
		fmt.Fprintf(ew, "- %s\n", mdEscape(k))
	}
	fmt.Fprintln(ew)
	for _, n := range g.Notes {
		fmt.Fprintf(ew, "- %s\n", mdEscape(n))
	}
	fmt.Fprintln(ew)
	fmt.Fprintf(ew, "**%s**\n", mdEscape(g.Summary))
	return ew.Err
}

// mdRow writes cells as a markdown table row, escaped unless raw (the
// cells made here: figures, bold marks, alignment).
func mdRow(w io.Writer, cells []string, raw bool) {
	out := make([]string, len(cells))
	for i, c := range cells {
		if raw && i > 0 {
			out[i] = units.Escape(c)
		} else {
			out[i] = mdEscape(c)
		}
	}
	fmt.Fprintln(w, "| "+strings.Join(out, " | ")+" |")
}

// mdEscape makes text from a file safe in markdown: control characters
// escaped (units.Escape) and the characters markdown reads escaped.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;").Replace(units.Escape(s))
}
