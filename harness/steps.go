package harness

import (
	"context"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A Step is one item of a Sequence, declared before anything is measured:
// a benchmark to measure (Make), a record derived from the steps before it
// (Derive), figures timed by the step itself (Figures), or a record made
// while the steps were sized (Record).
type Step struct {
	// Base is the record to start from: name, kind, identity, parameters
	// and device. Its name is what Sequence.Filter matches.
	Base results.Benchmark
	// Timer, when set, overrides the sequence's Settings.Timer.
	Timer measure.Timer
	// Modes launch the benchmark.
	Modes Modes
	// Make makes the benchmark to measure.
	Make func() (Bench, error)
	// Retry, when set, makes the first measurement short of validation
	// when short of samples (measure.Settings.ShortUnvalidated) and is told
	// its record: it returns the step to measure in its place (smaller
	// work), or nil to keep the first.
	Retry func(first results.Benchmark) *Step
	// When, when set, says from the records of the steps that ran (by
	// their declared names) whether the step runs at all (a width chosen
	// from earlier figures).
	When func(ran map[string]results.Benchmark) bool
	// Finish, when set, amends the record before it is handed on (it may
	// rename it: later steps know it by its declared name, Base.Name).
	Finish func(b *results.Benchmark)
	// From names the steps Derive reads; the step is handed on only when
	// at least one of them ran (Filter may leave them all out).
	From []string
	// Derive, when set, gives the step's figures and Extra from the records
	// of the steps that ran, by name; ok false hands nothing on.
	Derive func(ran map[string]results.Benchmark) (figs []results.Figure, extra map[string]any, ok bool)
	// Figures, when set, times the step outside the harness (process
	// start-up, first touch: see the step's maker) and gives its figures;
	// an error is kept in the record.
	Figures func(ctx context.Context) ([]results.Figure, map[string]any, error)
	// Record, when set, is handed on as Base is (a record made while the
	// steps were sized: the working-set row); Filter does not apply.
	Record bool
	// Device, when set, runs the step in place of the sequence's (a run
	// over several devices).
	Device Device
	// Watch, when set, watches the device's clocks around the measurement.
	Watch func() Watcher
	// RecordSizes adds the NDRange's sizes to the record's parameters.
	RecordSizes bool
	// Progress, when set, is told the measurement's progress in place of
	// the sequence's Settings.Progress.
	Progress func(measure.Progress)
}

// Run runs steps in order, handing each record on (Emit), and returns what
// stops the sequence: an interruption, abandoned work (Stops) or Emit's
// error. What finished before was handed on.
func (q *Sequence) Run(steps []Step) error {
	for _, st := range steps {
		if err := q.Step(st); err != nil {
			return err
		}
	}
	return nil
}

// Step runs one step (see Run).
func (q *Sequence) Step(st Step) error {
	if err := q.Ctx.Err(); err != nil {
		return err
	}
	switch {
	case st.Record:
		return q.Hand(st.Base)
	case st.Derive != nil:
		return q.derive(st)
	}
	if st.When != nil && !st.When(q.done) {
		return nil
	}
	if !q.keeps(st.Base.Name) {
		if q.Skip != nil {
			q.Skip(st.Base.Name)
		}
		return nil
	}
	if st.Figures != nil {
		return q.figures(st)
	}
	b, stop := q.measureStep(st)
	if stop == nil && b.Error == "" && st.Retry != nil {
		if next := st.Retry(b); next != nil {
			b, stop = q.measureStep(*next)
			st.Finish = next.Finish
		}
	}
	if st.Finish != nil && b.Name != "" {
		st.Finish(&b)
	}
	q.ran(st.Base.Name, b)
	return q.Finish(b, stop)
}

// keeps reports whether Filter keeps a step of that name.
func (q *Sequence) keeps(name string) bool {
	return q.Filter == nil || q.Filter.MatchString(name)
}

// measureStep measures st (short of validation when it may be retried).
func (q *Sequence) measureStep(st Step) (results.Benchmark, error) {
	if q.Progress != nil {
		q.Progress(st.Base.Name)
	}
	s := q.Settings
	if st.Retry != nil {
		s.ShortUnvalidated = true
	}
	if st.Progress != nil {
		s.Progress = st.Progress
	}
	dev := q.Device
	if st.Device != nil {
		dev = st.Device
	}
	b, err := Measure(q.Ctx, Item{Base: &st.Base, Device: dev, Make: st.Make, Settings: s, Timer: st.Timer, Modes: st.Modes,
		FailInvalid: !q.Strict, Watch: st.Watch, RecordSizes: st.RecordSizes})
	if err != nil && (q.Strict || Stops(err)) {
		return b, err
	}
	return b, nil
}

// figures runs a step that times itself.
func (q *Sequence) figures(st Step) error {
	if q.Progress != nil {
		q.Progress(st.Base.Name)
	}
	b := st.Base
	figs, extra, err := st.Figures(q.Ctx)
	if err != nil && Stops(err) {
		return err
	}
	if err != nil {
		b.Error = err.Error()
	} else {
		b.Figures = append(b.Figures, figs...)
		b.Extra = extra
	}
	q.ran(st.Base.Name, b)
	return q.Hand(b)
}

// derive hands on a derived step when one of its sources ran and Derive
// gives it.
func (q *Sequence) derive(st Step) error {
	if !q.anyRan(st.From) {
		return nil
	}
	figs, extra, ok := st.Derive(q.done)
	if !ok {
		return nil
	}
	b := st.Base
	b.Figures = append(b.Figures, figs...)
	b.Extra = extra
	if st.Finish != nil {
		st.Finish(&b)
	}
	q.ran(st.Base.Name, b)
	return q.Hand(b)
}

// ran keeps b, the record of the step declared as name, for the steps
// derived from it.
func (q *Sequence) ran(name string, b results.Benchmark) {
	if b.Name == "" {
		return
	}
	if q.done == nil {
		q.done = map[string]results.Benchmark{}
	}
	q.done[name] = b
}

func (q *Sequence) anyRan(names []string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if _, ok := q.done[n]; ok {
			return true
		}
	}
	return false
}

// A Listed step is what Sequence.List says of a step.
type Listed struct {
	Name     string            `json:"name"`
	Identity *results.Identity `json:"identity,omitempty"`
	Params   []ListedParam     `json:"params"`
	// How is how it is made: "measured" (the harness measures it),
	// "derived" (from the records of From), "self-timed" (timed by the
	// step itself), or "sizing" (a record made while sizing the steps).
	How  string   `json:"how"`
	From []string `json:"from,omitempty"`
}

// A ListedParam is one parameter of a listed step.
type ListedParam struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// How a listed step is made (Listed.How).
const (
	HowMeasured  = "measured"
	HowDerived   = "derived"
	HowSelfTimed = "self-timed"
	HowSizing    = "sizing"
)

// List returns the steps, in order, as Run would hand them on when every
// step runs: Filter applied, and a derived step listed when one of its
// sources is. Nothing is measured.
func (q *Sequence) List(steps []Step) []Listed {
	var out []Listed
	listed := map[string]bool{}
	for _, st := range steps {
		keep := st.Record || q.keeps(st.Base.Name)
		if st.Derive != nil {
			keep = len(st.From) == 0
			for _, n := range st.From {
				keep = keep || listed[n]
			}
		}
		if keep {
			listed[st.Base.Name] = true
			out = append(out, listedOf(st))
		}
	}
	return out
}

func listedOf(st Step) Listed {
	l := Listed{Name: st.Base.Name, Identity: st.Base.Identity, Params: []ListedParam{}, How: HowMeasured}
	for _, p := range st.Base.OrderedParams() {
		l.Params = append(l.Params, ListedParam{p.Name, p.Value})
	}
	switch {
	case st.Record:
		l.How = HowSizing
	case st.Derive != nil:
		l.How, l.From = HowDerived, st.From
	case st.Figures != nil:
		l.How = HowSelfTimed
	}
	return l
}
