package check

import (
	"bufio"
	"fmt"
	"github.com/clmeter/clmeter/units"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Kind is what sort of error Oclgrind found.
type Kind string

// The kinds of finding. Each is one family of Oclgrind diagnostic.
const (
	// InvalidRead and InvalidWrite are accesses outside every allocation of
	// their address space (past the end of a buffer, a negative index).
	InvalidRead  Kind = "invalid-read"
	InvalidWrite Kind = "invalid-write"
	// InvalidAccess is a read of a write-only buffer, a write to a read-only
	// one or an access to a mapped buffer.
	InvalidAccess Kind = "invalid-access"
	// ArrayBounds is an index past the end of a fixed-size array.
	ArrayBounds Kind = "array-bounds"
	// Unaligned is a load or store through a misaligned pointer.
	Unaligned Kind = "unaligned-access"
	// DataRace is two work-items touching one address without synchronisation,
	// at least one of them writing.
	DataRace Kind = "data-race"
	// Uninitialized is a value that was never written, used where it matters
	// (stored to memory, used as an address or to branch).
	Uninitialized Kind = "uninitialized-value"
	// BarrierDivergence is a barrier that only some work-items of a work-group
	// reached; WorkGroupDivergence the same for other work-group functions
	// (async copies, collective operations).
	BarrierDivergence   Kind = "barrier-divergence"
	WorkGroupDivergence Kind = "work-group-divergence"
	// APIError is an OpenCL call Oclgrind's API checks found wrong.
	APIError Kind = "api-error"
	// WrongOutput is an output that differs from the expected one (a
	// built-in's CPU reference, a spec file's expect); it has no location.
	WrongOutput Kind = "wrong-output"
	// Other is an Oclgrind error clmeter does not classify; Message has its text.
	Other Kind = "other"
)

// Title is the kind as a person reads it: "invalid read", "data race".
func (k Kind) Title() string { return strings.ReplaceAll(string(k), "-", " ") }

// A WorkItem names one work-item by its global, local and work-group ids.
type WorkItem struct {
	Global [3]int `json:"global"`
	Local  [3]int `json:"local"`
	Group  [3]int `json:"group"`
}

func (w WorkItem) String() string {
	return fmt.Sprintf("global %s local %s group %s", ids(w.Global), ids(w.Local), ids(w.Group))
}

func ids(v [3]int) string { return fmt.Sprintf("(%d,%d,%d)", v[0], v[1], v[2]) }

// A Location is a line of OpenCL C source.
type Location struct {
	// File is the user's file (the kernel source in place of Oclgrind's
	// "input.cl"), or a built-in's name ("builtin:stream.cl").
	File string `json:"file"`
	// Line and Column count from 1 (Column 0 when unknown).
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
	// Code is the source line, as written.
	Code string `json:"code,omitempty"`
}

func (l Location) String() string {
	if l.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// An Access is one side of a finding: where in the source, by which work-item.
type Access struct {
	Location *Location `json:"location,omitempty"`
	WorkItem *WorkItem `json:"work_item,omitempty"`
}

// A Finding is one error Oclgrind reported, located in the user's source.
// Identical reports (same kind, kernel and lines) from many work-items are one
// Finding with Count set to how many there were; the first one's work-items
// and address are kept.
type Finding struct {
	Kind Kind `json:"kind"`
	// Message is Oclgrind's first line ("Invalid read of size 4 at global
	// memory address 0x1000000000400").
	Message string `json:"message"`
	Kernel  string `json:"kernel,omitempty"`
	// Access is where it happened; for a data race, the first of the two
	// accesses, with Other the second.
	Access
	Other *Access `json:"other,omitempty"`
	// WorkGroup is the work-group of a divergence report.
	WorkGroup *[3]int `json:"work_group,omitempty"`
	// Space and Address are the memory the access touched ("global", "local",
	// "private", "constant"; Oclgrind's address).
	Space   string `json:"space,omitempty"`
	Address string `json:"address,omitempty"`
	// Size is the access's size in bytes (invalid reads and writes).
	Size int `json:"size,omitempty"`
	// Buffer says which kernel argument a global address falls in, when known.
	Buffer string `json:"buffer,omitempty"`
	// Detail is Oclgrind's explanation beyond the first line ("Only 32 out of
	// 64 work-items executed barrier"), or the API function and error.
	Detail string `json:"detail,omitempty"`
	// Count is how many reports this finding stands for (at least 1).
	Count int `json:"count"`
}

// A Log is what parsing Oclgrind's output gave: the findings in the order
// first seen, and whether Oclgrind stopped reporting at its error limit.
type Log struct {
	Findings []Finding
	// Truncated is true when Oclgrind suppressed errors past OCLGRIND_MAX_ERRORS.
	Truncated bool
}

var (
	reAtLine  = regexp.MustCompile(`^At line (\d+)(?: \(column (\d+)\))? of (.+):$`)
	reEntity  = regexp.MustCompile(`Global\((-?\d+),(-?\d+),(-?\d+)\)\s+Local\((-?\d+),(-?\d+),(-?\d+)\)\s+Group\((-?\d+),(-?\d+),(-?\d+)\)`)
	reGroup   = regexp.MustCompile(`^\((\d+),(\d+),(\d+)\)$`)
	reAddress = regexp.MustCompile(`(?:of size (\d+) )?(?:at|to|from) (\w+) memory address (0x[0-9a-fA-F]+)`)
	reSuppr   = regexp.MustCompile(`^Oclgrind: \d+ errors generated - suppressing further errors`)
)

// ParseLog reads Oclgrind's diagnostics (what it writes to stderr, or to the
// file OCLGRIND_LOG names). A diagnostic starts with an unindented line and
// goes on with tab-indented ones; text that is neither is skipped. Locations
// name the file as Oclgrind wrote it ("input.cl" for the program's source);
// Locate maps them to the user's file.
func ParseLog(r io.Reader) (*Log, error) {
	out := &Log{Findings: []Finding{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var block []string
	flush := func() {
		if len(block) > 0 {
			if f, ok := parseBlock(block); ok {
				out.Findings = append(out.Findings, f)
			}
		}
		block = nil
	}
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case reSuppr.MatchString(line):
			flush()
			out.Truncated = true
		case line == "":
			// Blank lines separate diagnostics, and also the two sides of a race
			// (those are tab-indented): only an unindented line starts a new one.
			if len(block) > 0 {
				block = append(block, line)
			}
		case line[0] == '\t' || line[0] == ' ':
			if len(block) > 0 {
				block = append(block, line)
			}
		default:
			flush()
			block = []string{line}
		}
	}
	flush()
	return out, sc.Err()
}

// classify returns the kind of a diagnostic from its first line.
func classify(head string) (Kind, bool) {
	switch {
	case strings.HasPrefix(head, "Invalid read of size"):
		return InvalidRead, true
	case strings.HasPrefix(head, "Invalid write of size"):
		return InvalidWrite, true
	case strings.HasPrefix(head, "Invalid read from"), strings.HasPrefix(head, "Invalid write to"):
		return InvalidAccess, true
	case strings.HasPrefix(head, "Index (") && strings.Contains(head, "exceeds static array size"):
		return ArrayBounds, true
	case strings.HasPrefix(head, "Invalid memory load"), strings.HasPrefix(head, "Invalid memory store"),
		strings.HasPrefix(head, "Unaligned address"):
		return Unaligned, true
	case strings.Contains(head, "data race at"):
		return DataRace, true
	case strings.HasPrefix(head, "Uninitialized "):
		return Uninitialized, true
	case strings.HasPrefix(head, "Work-group divergence detected (barrier)"):
		return BarrierDivergence, true
	case strings.HasPrefix(head, "Work-group divergence detected"):
		return WorkGroupDivergence, true
	case strings.HasPrefix(head, "Oclgrind - OpenCL runtime error detected"):
		return APIError, true
	case strings.HasPrefix(head, "Oclgrind"), strings.HasPrefix(head, "Warning"):
		// Oclgrind's own notes (its banner, an unknown variable): not findings.
		return "", false
	}
	return Other, true
}

func parseBlock(lines []string) (Finding, bool) {
	head := strings.TrimSpace(lines[0])
	kind, ok := classify(head)
	if !ok {
		return Finding{}, false
	}
	f := Finding{Kind: kind, Message: head, Count: 1}
	if m := reAddress.FindStringSubmatch(head); m != nil {
		f.Size, _ = strconv.Atoi(m[1])
		f.Space, f.Address = m[2], m[3]
	}
	cur := &f.Access
	var details []string
	for i := 1; i < len(lines); i++ {
		raw := lines[i]
		t := strings.TrimSpace(raw)
		switch {
		case t == "":
		case strings.HasPrefix(t, "Kernel:"):
			f.Kernel = strings.TrimSpace(strings.TrimPrefix(t, "Kernel:"))
		case strings.HasPrefix(t, "Second entity:"):
			f.Other = &Access{WorkItem: parseEntity(t)}
			cur = f.Other
		case strings.HasPrefix(t, "Entity:"), strings.HasPrefix(t, "First entity:"), strings.HasPrefix(t, "Work-item:"):
			cur.WorkItem = parseEntity(t)
		case strings.HasPrefix(t, "Work-group:"):
			if m := reGroup.FindStringSubmatch(strings.TrimSpace(strings.TrimPrefix(t, "Work-group:"))); m != nil {
				g := [3]int{atoi(m[1]), atoi(m[2]), atoi(m[3])}
				f.WorkGroup = &g
			}
		case reAtLine.MatchString(t):
			m := reAtLine.FindStringSubmatch(t)
			loc := &Location{File: m[3], Line: atoi(m[1]), Column: atoi(m[2])}
			// The source line follows, indented further.
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t  ") {
				loc.Code = strings.TrimPrefix(lines[i+1], "\t  ")
				i++
			}
			if cur.Location == nil {
				cur.Location = loc
			}
		case strings.HasPrefix(raw, "\t  "):
			// The LLVM instruction: not for users.
		case strings.HasPrefix(t, "Function:"), strings.HasPrefix(t, "Error:"):
			details = append(details, strings.Join(strings.Fields(t), " "))
		default:
			details = append(details, t)
		}
	}
	f.Detail = strings.Join(details, "; ")
	return f, true
}

func parseEntity(s string) *WorkItem {
	m := reEntity.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	var w WorkItem
	for d := 0; d < 3; d++ {
		w.Global[d], w.Local[d], w.Group[d] = atoi(m[1+d]), atoi(m[4+d]), atoi(m[7+d])
	}
	return &w
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// key identifies the reports that Merge counts as one finding.
func (f Finding) key() string {
	k := string(f.Kind) + "\x00" + f.Kernel + "\x00" + f.Space + "\x00" + f.Detail
	if f.Kind == Other || f.Kind == APIError {
		k += "\x00" + f.Message
	}
	var locs []string
	if f.Location != nil {
		locs = append(locs, f.Location.String())
	}
	if f.Other != nil && f.Other.Location != nil {
		locs = append(locs, f.Other.Location.String())
	}
	// A race between lines 8 and 9 is one race, whichever work-item came first.
	sort.Strings(locs)
	return k + "\x00" + strings.Join(locs, "\x00")
}

// Merge folds identical reports into one finding each, in first-seen order,
// summing Count. The report kept is the one with the lowest address (a race
// on a float is reported for each of its bytes; the lowest is the element's
// start), else the first.
func Merge(fs []Finding) []Finding {
	out := []Finding{}
	at := map[string]int{}
	for _, f := range fs {
		k := f.key()
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, f)
			continue
		}
		n := out[i].Count + f.Count
		if lowerAddress(f.Address, out[i].Address) {
			out[i] = f
		}
		out[i].Count = n
	}
	return foldConsequences(out)
}

func lowerAddress(a, b string) bool {
	x, err1 := strconv.ParseUint(strings.TrimPrefix(a, "0x"), 16, 64)
	y, err2 := strconv.ParseUint(strings.TrimPrefix(b, "0x"), 16, 64)
	return err1 == nil && err2 == nil && x < y
}

// foldConsequences drops an uninitialized-value finding at a line where an
// invalid read or a data race was also found: the value came from that read
// (past a buffer's end, or before a neighbour wrote it), so it is the same
// bug. The earlier finding says so.
func foldConsequences(fs []Finding) []Finding {
	cause := map[string]int{}
	for i, f := range fs {
		if f.Kind != InvalidRead && f.Kind != DataRace {
			continue
		}
		for _, a := range []*Access{&f.Access, f.Other} {
			if a != nil && a.Location != nil {
				if _, ok := cause[a.Location.lineKey()]; !ok {
					cause[a.Location.lineKey()] = i
				}
			}
		}
	}
	out := fs[:0:0]
	folded := map[int]int{}
	for _, f := range fs {
		if f.Kind == Uninitialized && f.Location != nil {
			if i, ok := cause[f.Location.lineKey()]; ok {
				folded[i] += f.Count
				continue
			}
		}
		out = append(out, f)
	}
	for i, f := range out {
		for ci, n := range folded {
			if fs[ci].key() == f.key() {
				note := fmt.Sprintf("the value read is then used uninitialized (%s folded in)", units.Count(n, "report"))
				if out[i].Detail != "" {
					note = out[i].Detail + "; " + note
				}
				out[i].Detail = note
			}
		}
	}
	return out
}

func (l Location) lineKey() string { return l.File + ":" + strconv.Itoa(l.Line) }
