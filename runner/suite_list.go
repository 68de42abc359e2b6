package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// listedSuite is one device's list of a suite's steps, as --list --format
// json writes it.
type listedSuite struct {
	Suite  string           `json:"suite"`
	Device string           `json:"device"`
	Steps  []harness.Listed `json:"steps"`
}

// listSuite prints the steps o.Suite would run on each selected device
// (--list), with the filter applied, measuring nothing: memory working sets
// that only a probe finds are named, not probed.
func listSuite(m *runtime.Manager, o SuiteOptions, filter *regexp.Regexp, stdout io.Writer) error {
	devs, err := m.Select(o.Device)
	if err != nil {
		return fail.With(fail.NoDevice, err)
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	exe, _ := os.Executable() // as the run has it: coldstart lists its fresh process
	var lists []listedSuite
	for _, d := range devs {
		co := clkernels.Options{Settings: o.Settings, Small: o.Small, MaxSize: o.MaxSize, MaxMemory: o.MaxMemory, Filter: filter, Executable: exe}
		lists = append(lists, listedSuite{Suite: o.Suite, Device: d.Label(), Steps: suite.List(d, co)})
	}
	if filter != nil && len(lists) > 0 && !measures(lists[0].Steps) {
		return usageErr("--filter %q matches none of suite %s: 'clmeter suite %s --list' lists them", o.Filter, o.Suite, o.Suite)
	}
	if o.Format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(lists)
	}
	width := table.Width(stdout)
	for i, l := range lists {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeListed(stdout, l, width)
	}
	if suite.FillProfile && !o.NoProfile {
		table.WriteWrapped(stdout, "After the suite, what the device profile still lacks (bandwidth, float compute, launch latency, pinned transfers) is measured as a short profile of its own; --no-profile leaves the profile alone.", width, "", "  ")
	}
	return nil
}

// writeListed prints one device's list as a table fitted to width, with
// notes on the steps that are not measured by the harness.
func writeListed(w io.Writer, l listedSuite, width int) {
	table.WriteWrapped(w, fmt.Sprintf("suite %s on %s: %s (nothing measured)", l.Suite, l.Device, units.Count(len(l.Steps), "step")), width, "", "  ")
	t := table.New(table.Column{Header: "#", Right: true}, table.Column{Header: "BENCHMARK"},
		table.Column{Header: "KIND", Drop: 2}, table.Column{Header: "PARAMS", Wrap: true, Drop: 1}, table.Column{Header: "HOW", Drop: 3})
	sized := false
	for i, s := range l.Steps {
		var ps []string
		for _, p := range s.Params {
			ps = append(ps, p.Name+"="+p.Value)
			sized = sized || p.Value == clkernels.ProbedSize
		}
		kind := ""
		if s.Identity != nil {
			kind = s.Identity.Kind
		}
		how := s.How
		if s.How == harness.HowDerived {
			how = fmt.Sprintf("derived from %d", len(s.From))
		}
		t.Row(fmt.Sprint(i+1), s.Name, kind, strings.Join(ps, " "), how)
	}
	t.Write(w, width)
	if sized {
		table.WriteWrapped(w, "probed: the memory working set is found by a probe (peaks/working-set) when the suite runs, a few seconds on the device; --list does not run it. The probe also decides whether peaks measures in-cache bandwidth (peaks/cache-bandwidth/*). --small lists the small sizes.", width, "", "  ")
	}
}

// measures reports whether steps hold one that is not made while sizing.
func measures(steps []harness.Listed) bool {
	for _, s := range steps {
		if s.How != harness.HowSizing {
			return true
		}
	}
	return false
}
