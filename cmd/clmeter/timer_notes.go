package main

import (
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

// suiteTimerNotes returns, once each, the timer notes of a suite table's rows.
func suiteTimerNotes(bs []results.Benchmark) []string {
	var notes []string
	seen := map[string]bool{}
	for _, b := range bs {
		if m := b.Measurement; m != nil && m.TimerNote != "" && !seen[m.TimerNote] {
			seen[m.TimerNote] = true
			notes = append(notes, b.Name+": figures use the host timer, "+m.TimerNote)
		}
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
