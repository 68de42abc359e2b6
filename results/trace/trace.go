package trace

import (
	"cmp"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"time"
)

// A Trace is a timeline of host calls and device commands on the host clock,
// written in the Chrome trace event format (WriteChrome), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open.
type Trace struct {
	// Process names the one process of the trace ("clmeter trace saxpy").
	Process string
	// Lanes are the rows: by convention lane 0 is the host thread and one lane
	// per queue follows.
	Lanes []Lane
	// Slices are host calls: one span on one lane.
	Slices []Slice
	// Commands are device commands with their profiling stages.
	Commands []Command
	// Metadata goes to the trace's "metadata" object: the clock mapping and its
	// uncertainty, the device, the command line.
	Metadata map[string]any
}

// A Lane is one row of the timeline (a thread id in the Chrome format).
type Lane struct {
	ID   int
	Name string
}

// A Slice is a host call. Times are since the trace's origin.
type Slice struct {
	Lane       int
	Name       string
	Category   string
	Start, End time.Duration
	Args       map[string]any
}

// A Command is a device command with its four profiling timestamps mapped
// onto the host clock (since the trace's origin): queued, submitted to the
// device, started, ended.
type Command struct {
	Lane                       int
	Name                       string
	Category                   string
	Queued, Submit, Start, End time.Duration
	Args                       map[string]any
}

// ChromeEvent is one event of the Chrome trace event format.
type ChromeEvent struct {
	Name string `json:"name"`
	Cat  string `json:"cat,omitempty"`
	// Ph is the phase: "X" a complete slice, "b"/"e" the begin and end of an
	// async (nestable) slice, "M" metadata.
	Ph  string          `json:"ph"`
	TS  json.RawMessage `json:"ts"`
	Dur json.RawMessage `json:"dur,omitempty"`
	PID int             `json:"pid"`
	TID int             `json:"tid"`
	// ID ties the async events of one command together.
	ID   string         `json:"id,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// ChromeTrace is the JSON object WriteChrome writes.
type ChromeTrace struct {
	TraceEvents     []ChromeEvent  `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	Metadata        map[string]any `json:"metadata"`
}

// us writes a duration as microseconds with nanosecond precision, the unit of
// the format's ts and dur.
func us(d time.Duration) json.RawMessage {
	return json.RawMessage(strconv.FormatFloat(float64(d)/1e3, 'f', 3, 64))
}

const tracePID = 1

// Chrome returns the trace as Chrome trace events:
//
//   - metadata events naming the process and each lane (thread_name,
//     thread_sort_index in lane order);
//   - one complete ("X") slice per host call on its lane;
//   - one complete slice per device command on its queue's lane, spanning
//     START to END (what the device spent on it); its args hold all four
//     timestamps;
//   - per device command, nested async slices ("b"/"e", category "stages",
//     one id per command) that Perfetto shows in a row per command name: the
//     command from QUEUED to END holding "queued" (QUEUED..SUBMIT), "submitted"
//     (SUBMIT..START) and "running" (START..END).
//
// Events are sorted by time, so every lane's events are in order.
func (t *Trace) Chrome() ChromeTrace {
	out := ChromeTrace{TraceEvents: []ChromeEvent{}, DisplayTimeUnit: "ns", Metadata: t.Metadata}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	zero := us(0)
	out.TraceEvents = append(out.TraceEvents, ChromeEvent{Name: "process_name", Ph: "M", TS: zero, PID: tracePID,
		Args: map[string]any{"name": t.Process}})
	for i, l := range t.Lanes {
		out.TraceEvents = append(out.TraceEvents,
			ChromeEvent{Name: "thread_name", Ph: "M", TS: zero, PID: tracePID, TID: l.ID, Args: map[string]any{"name": l.Name}},
			ChromeEvent{Name: "thread_sort_index", Ph: "M", TS: zero, PID: tracePID, TID: l.ID, Args: map[string]any{"sort_index": i}})
	}
	type timed struct {
		at    time.Duration
		order int // begin events before end events at the same time, outer before inner
		ev    ChromeEvent
	}
	var evs []timed
	for _, s := range t.Slices {
		evs = append(evs, timed{s.Start, 0, ChromeEvent{Name: s.Name, Cat: s.Category, Ph: "X", TS: us(s.Start),
			Dur: us(max(s.End-s.Start, 0)), PID: tracePID, TID: s.Lane, Args: s.Args}})
	}
	for i, c := range t.Commands {
		args := map[string]any{"queued_us": us(c.Queued), "submit_us": us(c.Submit), "start_us": us(c.Start), "end_us": us(c.End),
			"queued_to_start_ns": int64(c.Start - c.Queued), "run_ns": int64(c.End - c.Start)}
		for k, v := range c.Args {
			args[k] = v
		}
		evs = append(evs, timed{c.Start, 0, ChromeEvent{Name: c.Name, Cat: c.Category, Ph: "X", TS: us(c.Start),
			Dur: us(max(c.End-c.Start, 0)), PID: tracePID, TID: c.Lane, Args: args}})
		id := strconv.Itoa(i + 1)
		async := func(name, ph string, at time.Duration, order int) {
			evs = append(evs, timed{at, order, ChromeEvent{Name: name, Cat: "stages", Ph: ph, TS: us(at), PID: tracePID, TID: c.Lane, ID: id}})
		}
		async(c.Name, "b", c.Queued, 1)
		async("queued", "b", c.Queued, 2)
		async("queued", "e", c.Submit, -3)
		async("submitted", "b", c.Submit, 3)
		async("submitted", "e", c.Start, -2)
		async("running", "b", c.Start, 4)
		async("running", "e", c.End, -2)
		async(c.Name, "e", c.End, -1)
	}
	slices.SortStableFunc(evs, func(a, b timed) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.order, b.order)) })
	for _, e := range evs {
		out.TraceEvents = append(out.TraceEvents, e.ev)
	}
	return out
}

// WriteChrome writes the trace as Chrome trace event JSON.
func (t *Trace) WriteChrome(w io.Writer) error {
	enc := json.NewEncoder(w)
	return enc.Encode(t.Chrome())
}
