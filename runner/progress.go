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

// A progressLine is the one line of progress on a terminal's stderr: what is
// measured, the samples taken, the noise against its target and the time,
// redrawn every second so that a long sample shows it is running. Its
// methods do nothing on a nil *progressLine (stderr is no terminal).
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	label string
	p     measure.Progress
	at    time.Time // when p came
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// newProgressLine returns a progress line on stderr, nil when stderr is no
// terminal (progress is silent when piped or in CI).
func newProgressLine(stderr io.Writer) *progressLine {
	if !table.IsTerminal(stderr) {
		return nil
	}
	pl := &progressLine{w: stderr, width: table.Width(stderr), stop: make(chan struct{}), done: make(chan struct{})}
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

// update shows p for label; an empty label clears the line.
func (pl *progressLine) update(label string, p measure.Progress) {
	if pl == nil {
		return
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.label, pl.p, pl.at = label, p, time.Now()
	pl.draw()
}

// name shows a step with no samples yet (a suite's next benchmark).
func (pl *progressLine) name(label string) { pl.update(label, measure.Progress{Stage: "setup"}) }

func (pl *progressLine) draw() {
	if pl.label == "" {
		fmt.Fprint(pl.w, "\r\033[K")
		return
	}
	p := pl.p
	parts := []string{p.Stage, units.Count(p.Samples, "sample")}
	if p.Noise > 0 {
		parts = append(parts, fmt.Sprintf("noise ±%s (target ±%s)", units.Percent(p.Noise), units.Percent(p.Target)))
	}
	since := time.Since(pl.at)
	parts = append(parts, units.Duration((p.Elapsed + since).Round(100*time.Millisecond)))
	if since >= 2*time.Second && p.Stage == "samples" {
		parts = append(parts, fmt.Sprintf("sample %d running for %s", p.Samples+1, units.Duration(since.Round(100*time.Millisecond))))
	}
	line := pl.label + ": " + strings.Join(parts, ", ")
	if ls := table.Wrap(line, pl.width-1, "", ""); len(ls) > 0 {
		line = ls[0] // the line must not wrap, or \r cannot redraw it
	}
	fmt.Fprint(pl.w, "\r\033[K"+line)
}

// close stops the redraws and clears the line.
func (pl *progressLine) close() {
	if pl == nil {
		return
	}
	pl.once.Do(func() {
		close(pl.stop)
		<-pl.done
		pl.update("", measure.Progress{})
	})
}
