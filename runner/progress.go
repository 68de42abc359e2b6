package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// A progressLine shows progress on stderr, one row per device at work. On a
// terminal each row is a line redrawn every second (what is measured, the
// benchmark's number, the samples taken, the noise against its target and
// the time), so that a long sample shows it is running. When stderr is no
// terminal (a pipe, a scheduler's log) it writes one plain line per finished
// benchmark instead. Its methods are safe for the devices' workers at once
// and do nothing on a nil *progressLine (no progress wanted).
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int
	rows  []*progressRow
	// drawn is how many lines the last draw left on the terminal.
	drawn int
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// A progressRow is one device's progress.
type progressRow struct {
	pl *progressLine
	// prefix names the device when there are several ("0:1 NVIDIA H200").
	prefix string
	label  string
	p      measure.Progress
	at     time.Time // when p came
	start  time.Time // when the device's first benchmark began
	// n is the number of the benchmark under way, total how many there
	// are (zero: not known).
	n, total int
}

// newProgressLine returns progress on stderr with one row, nil when stderr is
// no terminal (a single command's progress is silent when piped or in CI).
func newProgressLine(stderr io.Writer) *progressLine {
	if !table.IsTerminal(stderr) {
		return nil
	}
	pl := newProgress(stderr, true)
	pl.add("")
	return pl
}

// newProgress returns progress on w, redrawn when tty is set, else written
// as plain lines; rows are added with add.
func newProgress(w io.Writer, tty bool) *progressLine {
	pl := &progressLine{w: w, tty: tty, width: table.Width(w), stop: make(chan struct{}), done: make(chan struct{})}
	if !tty {
		close(pl.done)
		return pl
	}
	go func() {
		defer close(pl.done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-pl.stop:
				return
			case <-t.C:
				pl.mu.Lock()
				pl.draw()
				pl.mu.Unlock()
			}
		}
	}()
	return pl
}

// add adds a row named prefix and returns it (nil on a nil progressLine).
func (pl *progressLine) add(prefix string) *progressRow {
	if pl == nil {
		return nil
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	r := &progressRow{pl: pl, prefix: prefix}
	pl.rows = append(pl.rows, r)
	return r
}

// update shows p for label on the first row; an empty label clears it.
func (pl *progressLine) update(label string, p measure.Progress) {
	if pl == nil || len(pl.rows) == 0 {
		return
	}
	pl.rows[0].update(label, p)
}

// name shows a step with no samples yet on the first row (a suite's next
// benchmark).
func (pl *progressLine) name(label string) {
	if pl == nil || len(pl.rows) == 0 {
		return
	}
	pl.rows[0].name(label)
}

// printf writes a message above the rows (on a terminal the rows are
// cleared first and redrawn after it), so that messages and progress of
// devices working at once never garble each other.
func (pl *progressLine) printf(format string, a ...any) {
	if pl == nil {
		return
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.clear()
	fmt.Fprintf(pl.w, format, a...)
	pl.draw()
}

// update shows p for label; an empty label clears the row.
func (r *progressRow) update(label string, p measure.Progress) {
	if r == nil || !r.pl.tty {
		return
	}
	r.pl.mu.Lock()
	defer r.pl.mu.Unlock()
	r.label, r.p, r.at = label, p, time.Now()
	r.pl.draw()
}

// name starts the row's next benchmark: label, number n of total (zero:
// not known).
func (r *progressRow) begin(label string, n, total int) {
	if r == nil {
		return
	}
	r.pl.mu.Lock()
	defer r.pl.mu.Unlock()
	now := time.Now()
	if r.start.IsZero() {
		r.start = now
	}
	r.label, r.p, r.at, r.n, r.total = label, measure.Progress{Stage: "setup"}, now, n, total
	if r.pl.tty {
		r.pl.draw()
	}
}

// name shows a step with no samples yet.
func (r *progressRow) name(label string) { r.update(label, measure.Progress{Stage: "setup"}) }

// finished reports a finished benchmark, number n of the count (zero: a row
// derived from others, not counted): on a terminal the row moves on at the
// next begin; elsewhere one plain line says which, of how many, on which
// device, after how long, and how it ended (status: "" for done).
func (r *progressRow) finished(label string, n int, status string) {
	if r == nil || r.pl.tty {
		return
	}
	r.pl.mu.Lock()
	defer r.pl.mu.Unlock()
	if status == "" {
		status = "done"
	}
	count := "derived"
	if n > 0 {
		count = r.count(n)
	}
	fmt.Fprintf(r.pl.w, "%s%s %s: %s, %s elapsed\n", prefixOf(r.prefix), count, label, status, seconds(time.Since(r.start)))
}

func prefixOf(p string) string {
	if p == "" {
		return ""
	}
	return p + ": "
}

// count is "benchmark 3 of 17", or "benchmark 3" with the total unknown
// or passed.
func (r *progressRow) count(n int) string {
	if r.total > 0 && n <= r.total {
		return fmt.Sprintf("benchmark %d of %d", n, r.total)
	}
	return fmt.Sprintf("benchmark %d", n)
}

// line is the row as text, without the width cut.
func (r *progressRow) line() string {
	if r.label == "" {
		return ""
	}
	p := r.p
	parts := []string{p.Stage, units.Count(p.Samples, "sample")}
	if p.Noise > 0 {
		parts = append(parts, fmt.Sprintf("noise ±%s (target ±%s)", units.Percent(p.Noise), units.Percent(p.Target)))
	}
	since := time.Since(r.at)
	parts = append(parts, seconds(p.Elapsed+since))
	if since >= 2*time.Second && p.Stage == "samples" {
		parts = append(parts, fmt.Sprintf("sample %d running for %s", p.Samples+1, units.Duration(since.Round(100*time.Millisecond))))
	}
	head := r.label
	if r.n > 0 {
		head = fmt.Sprintf("%s (%s, %s)", r.label, r.count(r.n), seconds(time.Since(r.start)))
	}
	return prefixOf(r.prefix) + head + ": " + strings.Join(parts, ", ")
}

// clear removes what the last draw left (the cursor ends at its first line).
func (pl *progressLine) clear() {
	if !pl.tty || pl.drawn == 0 {
		return
	}
	if pl.drawn > 1 {
		fmt.Fprintf(pl.w, "\033[%dA", pl.drawn-1)
	}
	fmt.Fprint(pl.w, "\r\033[J")
	pl.drawn = 0
}

// draw redraws the rows that have something to show, each cut to the
// width (a line must not wrap, or the cursor cannot return over it).
func (pl *progressLine) draw() {
	if !pl.tty {
		return
	}
	var lines []string
	for _, r := range pl.rows {
		l := r.line()
		if l == "" {
			continue
		}
		if ls := table.Wrap(l, pl.width-1, "", ""); len(ls) > 0 {
			l = ls[0]
		}
		lines = append(lines, l)
	}
	pl.clear()
	if len(lines) == 0 {
		fmt.Fprint(pl.w, "\r\033[K")
		return
	}
	fmt.Fprint(pl.w, strings.Join(lines, "\n"))
	pl.drawn = len(lines)
}

// close stops the redraws and clears the rows.
func (pl *progressLine) close() {
	if pl == nil {
		return
	}
	pl.once.Do(func() {
		if pl.tty {
			close(pl.stop)
		}
		<-pl.done
		pl.mu.Lock()
		defer pl.mu.Unlock()
		for _, r := range pl.rows {
			r.label = ""
		}
		pl.clear()
		if pl.tty {
			fmt.Fprint(pl.w, "\r\033[K")
		}
	})
}

// seconds is an elapsed time as progress shows it: "0.0 s", "12.3 s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
