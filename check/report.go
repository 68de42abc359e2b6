package check

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/internal/atomicfile"
	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/units"
)

// A Report is everything one check found, as -o writes it (JSON).
type Report struct {
	Tool    string   `json:"tool"`
	Version string   `json:"version,omitempty"`
	Command []string `json:"command,omitempty"`
	// Oclgrind is the ICD library the children loaded; Device the simulated
	// device and its platform.
	Oclgrind string `json:"oclgrind"`
	Device   string `json:"device,omitempty"`
	// Checks are Oclgrind's checks that were on.
	Checks []string `json:"checks"`
	// Notes say what check chose for the user (sizes, axes).
	Notes   []string       `json:"notes,omitempty"`
	Configs []ConfigResult `json:"configs"`
	// Findings counts findings over every configuration; WithFindings the
	// configurations that have any; Failed those that could not be checked.
	Findings     int `json:"findings"`
	WithFindings int `json:"with_findings"`
	Failed       int `json:"failed"`
}

// A ConfigResult is one configuration's check.
type ConfigResult struct {
	Label  string `json:"label"`
	Target string `json:"target"`
	Kernel string `json:"kernel,omitempty"`
	Source string `json:"source,omitempty"`
	Global []int  `json:"global,omitempty"`
	Local  []int  `json:"local,omitempty"`
	// Checks are the checks that ran (uninitialized values are dropped when
	// Oclgrind crashed with them on).
	Checks   []string      `json:"checks"`
	Duration time.Duration `json:"duration_ns"`
	Findings []Finding     `json:"findings"`
	// Error says why the configuration could not be checked ("" when it was).
	Error string   `json:"error,omitempty"`
	Notes []string `json:"notes,omitempty"`
}

func (r *Report) tally() {
	r.Findings, r.WithFindings, r.Failed = 0, 0, 0
	for _, c := range r.Configs {
		r.Findings += len(c.Findings)
		if len(c.Findings) > 0 {
			r.WithFindings++
		}
		if c.Error != "" {
			r.Failed++
		}
	}
}

// checkNames lists Oclgrind's checks as they are turned on.
func checkNames(uninit, uniform bool) []string {
	c := []string{"memory accesses", "data races"}
	if uniform {
		c[1] = "data races (uniform writes too)"
	}
	if uninit {
		c = append(c, "uninitialized values")
	}
	return append(c, "barrier and work-group divergence", "API calls")
}

// locate puts a finding in the user's terms: Oclgrind names the program's
// source "input.cl", which becomes the user's file (or the built-in's name),
// each location gets its line quoted from that source, and a global address
// is named as the kernel argument it falls in.
func locate(f *Finding, p *childPlan) {
	if p == nil {
		return
	}
	if f.Kernel == "" {
		f.Kernel = p.Kernel
	}
	for _, a := range []*Access{&f.Access, f.Other} {
		if a == nil || a.Location == nil {
			continue
		}
		l := a.Location
		var text string
		if l.File == "input.cl" {
			l.File, text = p.Source, p.Text
		} else {
			path := l.File
			if !filepath.IsAbs(path) && p.Dir != "" {
				if _, err := os.Stat(path); err != nil {
					path = filepath.Join(p.Dir, path)
				}
			}
			if b, err := userfile.Read(path, spec.SourceLimit()); err == nil {
				l.File, text = path, string(b)
			}
		}
		if text != "" {
			lines := strings.Split(text, "\n")
			if l.Line >= 1 && l.Line <= len(lines) {
				l.Code = strings.TrimRight(lines[l.Line-1], "\r")
			}
		}
	}
	f.Buffer = bufferOf(f.Space, f.Address, p.FirstBuffer, p.Args)
}

// bufferOf names the kernel argument a global address falls in. Oclgrind puts
// an allocation's number in the top 16 bits of a 64-bit address; the child
// makes one buffer per buffer argument, in argument order, the first being
// number first (0: unknown, and no argument is named).
func bufferOf(space, address string, first int, args []planArg) string {
	if (space != "global" && space != "constant") || first < 1 {
		return ""
	}
	addr, err := strconv.ParseUint(strings.TrimPrefix(address, "0x"), 16, 64)
	if err != nil {
		return ""
	}
	idx, off := int(addr>>48)-first+1, int64(addr&(1<<48-1))
	var bufs []planArg
	for _, a := range args {
		if a.Kind == "buffer" {
			bufs = append(bufs, a)
		}
	}
	if idx < 1 || idx > len(bufs) {
		return ""
	}
	b := bufs[idx-1]
	if b.ElemBytes > 0 {
		n, e := b.Bytes/int64(b.ElemBytes), off/int64(b.ElemBytes)
		s := fmt.Sprintf("argument %d (%s: %d %s), element %d", b.Index, b.Name, n, b.Elem, e)
		if e >= n {
			s += ": past its end"
		}
		return s
	}
	s := fmt.Sprintf("argument %d (%s, %d bytes), byte offset %d", b.Index, b.Name, b.Bytes, off)
	if off >= b.Bytes {
		s += ": past its end"
	}
	return s
}

func writeHeader(w io.Writer, r *Report) {
	fmt.Fprintf(w, "Checking on Oclgrind (%s), one child process per configuration; checks: %s\n", r.Oclgrind, strings.Join(r.Checks, ", "))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func writeConfig(w io.Writer, c ConfigResult) {
	fmt.Fprintln(w)
	head := c.Label
	if c.Kernel != "" {
		head += fmt.Sprintf(" (kernel %s, global %s", c.Kernel, units.Dims(c.Global))
		if len(c.Local) > 0 {
			head += ", local " + units.Dims(c.Local)
		}
		head += ")"
	}
	took := c.Duration.Round(10 * time.Millisecond)
	switch {
	case c.Error != "":
		fmt.Fprintf(w, "%s: NOT CHECKED (%s): %s\n", head, took, c.Error)
	case len(c.Findings) == 0:
		fmt.Fprintf(w, "%s: no findings (%s)\n", head, took)
	default:
		fmt.Fprintf(w, "%s: %s (%s)\n", head, units.Count(len(c.Findings), "finding"), took)
	}
	for _, f := range c.Findings {
		writeFinding(w, f)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}

func writeFinding(w io.Writer, f Finding) {
	where := ""
	if f.Location != nil {
		where = " at " + f.Location.String()
	}
	kernel := ""
	if f.Kernel != "" {
		kernel = ", kernel " + f.Kernel
	}
	fmt.Fprintf(w, "  %s%s%s\n", strings.ToUpper(f.Kind.Title()), where, kernel)
	if f.Location != nil && f.Location.Code != "" {
		fmt.Fprintf(w, "    %5d | %s\n", f.Location.Line, f.Location.Code)
	}
	msg := f.Message
	if f.Buffer != "" {
		msg += ": " + f.Buffer
	}
	fmt.Fprintf(w, "      %s\n", msg)
	if f.Detail != "" {
		fmt.Fprintf(w, "      %s\n", f.Detail)
	}
	if f.WorkItem != nil {
		fmt.Fprintf(w, "      by work-item %s\n", f.WorkItem)
	} else if f.WorkGroup != nil {
		fmt.Fprintf(w, "      in work-group %s\n", ids(*f.WorkGroup))
	}
	if o := f.Other; o != nil {
		line := "      racing with"
		if o.Location != nil {
			line += " " + o.Location.String()
		}
		if o.WorkItem != nil {
			line += " by work-item " + o.WorkItem.String()
		}
		fmt.Fprintln(w, line)
		if o.Location != nil && o.Location.Code != "" && (f.Location == nil || o.Location.Line != f.Location.Line || o.Location.File != f.Location.File) {
			fmt.Fprintf(w, "    %5d | %s\n", o.Location.Line, o.Location.Code)
		}
	}
	if f.Count > 1 {
		fmt.Fprintf(w, "      (%d reports like this one)\n", f.Count)
	}
}

func writeSummary(w io.Writer, r *Report) {
	fmt.Fprintln(w)
	clean := len(r.Configs) - r.WithFindings - r.Failed
	fmt.Fprintf(w, "%s checked on %s: %s in %d, %d clean", units.Count(len(r.Configs), "configuration"), r.Device, units.Count(r.Findings, "finding"), r.WithFindings, clean)
	if r.Failed > 0 {
		fmt.Fprintf(w, ", %d not checked", r.Failed)
	}
	fmt.Fprintln(w)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeFileAtomic writes the report to path atomically: a reader sees the old
// file or the whole new one.
func writeFileAtomic(path string, r *Report) error {
	return atomicfile.Write(path, func(w io.Writer) error { return writeJSON(w, r) })
}
