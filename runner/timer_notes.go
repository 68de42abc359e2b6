package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
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

// abandonNote is what an interrupted command adds to its message when the
// device was still busy and its work was abandoned ("" otherwise).
func abandonNote(err error) string {
	if !errors.Is(err, measure.ErrAbandoned) {
		return ""
	}
	return fmt.Sprintf("; the device was still busy %s after the interrupt, so its work was abandoned", measure.DefaultGrace)
}
