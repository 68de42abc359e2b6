package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// timerText says which timer a result's figures come from, for the run
// table's notes: "device (resolution 1µs)", or "host (device timer not used:
// ...)" after a failed check. A resolution of zero is not printed as a time.
func timerText(m *measure.Result) string {
	s := string(m.Timer)
	if m.TimerNote != "" {
		return s + " (" + m.TimerNote + ")"
	}
	if m.TimerResolution > 0 {
		return s + " (resolution " + m.TimerResolution.String() + ")"
	}
	if m.Timer == measure.TimerDevice {
		return s + " (resolution not reported; checked against the host clock)"
	}
	return s
}

// isTimerNote reports whether a warning is the timer fallback's, which the
// suite tables show once below the table instead of in every row.
func isTimerNote(w string) bool { return strings.HasPrefix(w, "host timer: device timer not used") }

// suiteTimerNotes says, once for each way the device timer failed, which of a
// suite table's rows use the host timer and why, with the first failed check.
func suiteTimerNotes(bs []results.Benchmark) []string {
	type group struct {
		names []string
		first string
	}
	var order []string
	groups := map[string]*group{}
	for _, b := range bs {
		m := b.Measurement
		if m == nil || m.TimerNote == "" {
			continue
		}
		why := m.TimerNote
		if i := strings.LastIndex(why, ": "); i >= 0 {
			why = why[i+2:] // "it reads nearly zero", "more than launch overhead ... can explain"
		}
		g := groups[why]
		if g == nil {
			g = &group{first: m.TimerNote}
			groups[why] = g
			order = append(order, why)
		}
		g.names = append(g.names, b.Name)
	}
	var notes []string
	for _, why := range order {
		g := groups[why]
		who := g.names[0]
		if len(g.names) > 1 {
			who = fmt.Sprintf("%d benchmarks (%s ... %s)", len(g.names), g.names[0], g.names[len(g.names)-1])
		}
		notes = append(notes, fmt.Sprintf("%s use the host timer: %s", who, g.first))
	}
	return notes
}

// zeroDash writes "-" for a zero duration: a figure of 0 is never printed as a
// time.
func zeroDash(d time.Duration, f func(time.Duration) string) string {
	if d == 0 {
		return "-"
	}
	return f(d)
}

// writeDoctorTimer prints, under a device of 'clmeter doctor', the timer its
// benchmarks get and its quirks.
func writeDoctorTimer(w io.Writer, dc runtime.DeviceCheck) {
	switch {
	case dc.Timer != nil && dc.Timer.Timer == measure.TimerDevice:
		c := dc.Timer.Check
		if c != nil {
			fmt.Fprintf(w, "         timer: device (event profiling); checked against the host clock: %d launches, %s by the device, %s by the host\n",
				c.Launches, fmtDur(c.Device), fmtDur(c.Host))
		} else {
			fmt.Fprintln(w, "         timer: device (event profiling)")
		}
	case dc.Timer != nil:
		fmt.Fprintf(w, "         timer: host (%s)\n", dc.Timer.Note)
	case dc.TimerProblem != "":
		fmt.Fprintf(w, "         timer: not checked: %s\n", dc.TimerProblem)
	}
	for _, q := range dc.Quirks {
		fmt.Fprintf(w, "         quirk: %s\n", q)
	}
}

// scaleG turns a rate in G units/s into a value of at least 1 (when it can)
// and its SI prefix: 0.0024 G -> 2.4 M, so that a slow device (Oclgrind) does
// not read "0.00 GB/s".
func scaleG(g float64) (float64, string) {
	for _, x := range []struct {
		p string
		m float64
	}{{"T", 1e3}, {"G", 1}, {"M", 1e-3}, {"k", 1e-6}} {
		if g >= x.m {
			return g / x.m, x.p
		}
	}
	return g * 1e9, ""
}

// figureText writes a figure with four significant digits; a rate in G.../s
// under 1 is rescaled ("0.01284 GB/s" reads "12.84 MB/s").
func figureText(v float64, unit string) string {
	if strings.HasPrefix(unit, "G") && strings.HasSuffix(unit, "/s") && v > 0 && v < 1 {
		x, p := scaleG(v)
		return fmt.Sprintf("%.4g %s%s", x, p, unit[1:])
	}
	return fmt.Sprintf("%.4g %s", v, unit)
}

// abandonNote is what an interrupted command adds to its message when the
// device was still busy and its work was abandoned ("" otherwise).
func abandonNote(err error) string {
	if !errors.Is(err, measure.ErrAbandoned) {
		return ""
	}
	return fmt.Sprintf("; the device was still busy %s after the interrupt, so its work was abandoned", measure.DefaultGrace)
}
