package cachebench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/units"
)

// benchRow is one program and mode: every trial.
type benchRow struct {
	Program string
	Mode    benchMode
	Trials  []childResult
}

// spread is a figure's median, min and max across trials.
type spread struct{ Median, Min, Max time.Duration }

func summarize(rs []childResult, get func(childResult) time.Duration) spread {
	if len(rs) == 0 {
		return spread{}
	}
	v := make([]time.Duration, len(rs))
	for i, r := range rs {
		v[i] = get(r)
	}
	slices.Sort(v)
	med := v[len(v)/2]
	if len(v)%2 == 0 {
		med = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return spread{med, v[0], v[len(v)-1]}
}

// figure is one timed quantity of a child.
type figure struct {
	Name string
	Get  func(childResult) time.Duration
}

// The parts of the time to first result, then what follows it.
var (
	figTTFR   = figure{"time to first result", childResult.TTFR}
	ttfrParts = []figure{
		{"enumeration", func(r childResult) time.Duration { return r.Enumeration }},
		{"context creation", func(r childResult) time.Duration { return r.Context }},
		{"program build", func(r childResult) time.Duration { return r.Build }},
		{"first launch", func(r childResult) time.Duration { return r.FirstLaunch }},
	}
	afterFigures = []figure{
		{"steady launch", func(r childResult) time.Duration { return r.Steady }},
		{"store after the work", func(r childResult) time.Duration { return r.Store }},
		{"cache work before the first result", func(r childResult) time.Duration { return r.CacheWork }},
		{"process wall time", func(r childResult) time.Duration { return r.Wall }},
	}
)

// modeSummary is one mode's medians.
type modeSummary struct {
	Row  benchRow
	TTFR spread
	// LessEnum is the median TTFR less enumeration: what the caches can
	// change (enumeration loads every ICD whatever the caches, and is the
	// noisiest part on a busy machine).
	LessEnum time.Duration
	Parts    []time.Duration // medians of ttfrParts
	After    []time.Duration // medians of afterFigures
}

// programSummary is one program over every mode.
type programSummary struct {
	Program     string
	BinaryBytes int64
	Modes       []modeSummary // in benchModes' order
}

func summarizeProgram(program string, rows []benchRow) programSummary {
	s := programSummary{Program: program}
	for _, row := range rows {
		ms := modeSummary{Row: row, TTFR: summarize(row.Trials, figTTFR.Get),
			LessEnum: summarize(row.Trials, func(r childResult) time.Duration { return r.TTFR() - r.Enumeration }).Median}
		for _, f := range ttfrParts {
			ms.Parts = append(ms.Parts, summarize(row.Trials, f.Get).Median)
		}
		for _, f := range afterFigures {
			ms.After = append(ms.After, summarize(row.Trials, f.Get).Median)
		}
		for _, r := range row.Trials {
			s.BinaryBytes = max(s.BinaryBytes, r.StoredBytes)
		}
		s.Modes = append(s.Modes, ms)
	}
	return s
}

func (s programSummary) ttfr(mode int) time.Duration { return s.Modes[mode].TTFR.Median }
func (s programSummary) store() time.Duration        { return s.Modes[modeMiss].After[1] }

// ratio is a / b (b at least 1 ns).
func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

// hitSaving is what each run with both caches warm saves against the driver's
// cache alone: the difference of TTFR less enumeration, which no cache changes.
func (s programSummary) hitSaving() time.Duration {
	return s.Modes[modeDriver].LessEnum - s.Modes[modeBoth].LessEnum
}

// breakEven is the number of runs with both caches warm whose savings against
// the driver's cache alone repay a miss's store; 0 when they never do.
func (s programSummary) breakEven() int {
	save := s.hitSaving()
	if save <= 0 {
		return 0
	}
	return max(1, int(math.Ceil(float64(s.store())/float64(save))))
}

func (s programSummary) savings() cache.ProgramSavings {
	return cache.ProgramSavings{Program: s.Program, Cold: s.ttfr(modeCold), Driver: s.ttfr(modeDriver), Ours: s.ttfr(modeOurs),
		Both: s.ttfr(modeBoth), MissStore: s.store(), BreakEven: s.breakEven()}
}

func msText(d time.Duration) string { return units.Milliseconds(d) }

func xText(v float64) string {
	if v >= 10 {
		return fmt.Sprintf("%.0fx", v)
	}
	return fmt.Sprintf("%.2fx", v)
}

// breakEvenText says after how many runs a miss is repaid.
func (s programSummary) breakEvenText() string {
	if n := s.breakEven(); n > 0 {
		return fmt.Sprintf("repaid after %s with both caches warm (each saves %s ms against the driver's cache alone)", units.Count(n, "run"), msText(s.hitSaving()))
	}
	return fmt.Sprintf("never repaid: with both caches warm a run saves nothing against the driver's cache alone (%s ms)", msText(s.hitSaving()))
}

func writeBenchTable(w io.Writer, s programSummary) {
	fmt.Fprintf(w, "\nprogram %s (clmeter's entry %s)\n", s.Program, units.Bytes(s.BinaryBytes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODE\tTTFR [MIN-MAX]\tVS COLD\tVS DRIVER\tLESS ENUM\tVS DRIVER\tENUMERATION\tCONTEXT\tBUILD\tFIRST LAUNCH\tSTEADY\tSTORE\tEXIT")
	cold, drv := s.ttfr(modeCold), s.ttfr(modeDriver)
	var notes []string
	for _, ms := range s.Modes {
		cells := []string{ms.Row.Mode.Name, fmt.Sprintf("%s [%s-%s]", msText(ms.TTFR.Median), msText(ms.TTFR.Min), msText(ms.TTFR.Max)),
			xText(ratio(cold, ms.TTFR.Median)), xText(ratio(drv, ms.TTFR.Median)),
			msText(ms.LessEnum), xText(ratio(s.Modes[modeDriver].LessEnum, ms.LessEnum))}
		launched := ms.Row.Trials[0].LaunchNote == ""
		for i, p := range ms.Parts {
			if i == 3 && !launched {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, msText(p))
		}
		for i, a := range ms.After {
			if i == 2 { // the cache's own work: in the miss line
				continue
			}
			if i == 0 && !launched {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, msText(a))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
		if n := hitNote(ms.Row); n != "" {
			notes = append(notes, ms.Row.Mode.Name+": "+n)
		}
		if n := ms.Row.Trials[0].LaunchNote; n != "" && !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	tw.Flush()
	if n := contextNote(s); n != "" {
		notes = append(notes, n)
	}
	miss := s.Modes[modeMiss]
	fmt.Fprintf(w, "miss (a first run: clmeter's cache empty, the driver's off): TTFR %s of --no-cache's; it stores %s ms after the work, so the process exits after %s of --no-cache's time; %s\n",
		xText(ratio(miss.TTFR.Median, cold)), msText(s.store()), xText(ratio(miss.After[3], s.Modes[modeCold].After[3])), s.breakEvenText())
	fmt.Fprintf(w, "the miss's own work before its first result (key, lookup, keeping the program for the store) took %s ms, %.2f%% of its TTFR: the rest is the same build as --no-cache's\n",
		msText(miss.After[2]), 100*ratio(miss.After[2], miss.TTFR.Median))
	for _, n := range notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

// hitNote says how many of a row's trials the clmeter cache served, when that is
// not what the mode expects.
func hitNote(row benchRow) string {
	hits := 0
	notes := map[string]bool{}
	for _, r := range row.Trials {
		if r.FromCache {
			hits++
		} else {
			notes[r.CacheNote] = true
		}
	}
	want := 0
	if row.Mode.warm() && row.Mode.Ours {
		want = len(row.Trials)
	}
	if hits == want {
		return ""
	}
	ns := make([]string, 0, len(notes))
	for n := range notes {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return fmt.Sprintf("%d of %d trials hit clmeter's cache, want %d (%s)", hits, len(row.Trials), want, strings.Join(ns, ", "))
}

// perProgram lists "program value" for every program.
func perProgram(sums []programSummary, f func(programSummary) string) string {
	var parts []string
	for _, s := range sums {
		parts = append(parts, s.Program+" "+f(s))
	}
	return strings.Join(parts, ", ")
}

// deviceVerdict says in one line which cache saves what on the device.
func deviceVerdict(device, family string, policy cache.Policy, sums []programSummary) string {
	name := family
	if name == "" {
		name = "unknown driver"
	}
	x := func(a, b int) func(programSummary) string {
		return func(s programSummary) string { return xText(ratio(s.ttfr(a), s.ttfr(b))) }
	}
	on := "off"
	if policy.On {
		on = "on"
	}
	less := func(a, b int) func(programSummary) string {
		return func(s programSummary) string { return xText(ratio(s.Modes[a].LessEnum, s.Modes[b].LessEnum)) }
	}
	return fmt.Sprintf("verdict on %s (%s), time to first result: the driver's cache alone %s faster than cold; clmeter's cache alone %s faster than cold, "+
		"%s against the driver's alone (%s less enumeration, which no cache changes); both caches %s faster than the driver's alone (%s less enumeration); "+
		"a miss stores %s after the work (TTFR %s of --no-cache's). clmeter's cache is %s by default on %s: %s.",
		device, name, perProgram(sums, x(modeCold, modeDriver)), perProgram(sums, x(modeCold, modeOurs)),
		perProgram(sums, x(modeDriver, modeOurs)), perProgram(sums, less(modeDriver, modeOurs)),
		perProgram(sums, x(modeDriver, modeBoth)), perProgram(sums, less(modeDriver, modeBoth)),
		perProgram(sums, func(s programSummary) string { return msText(s.store()) + " ms" }),
		perProgram(sums, x(modeMiss, modeCold)), on, name, policy.Why)
}

// benchmarks records each mode of the program for the result file.
func (s programSummary) benchmarks(d *runtime.Device) []results.Benchmark {
	var out []results.Benchmark
	cold, drv := s.ttfr(modeCold), s.ttfr(modeDriver)
	for i, ms := range s.Modes {
		row := ms.Row
		b := results.Benchmark{Name: row.Program + "/" + row.Mode.Name, Kind: "cache-bench", Device: d.Describe(), Figures: []results.Figure{}}
		b.SetParam("program", row.Program)
		b.SetParam("mode", row.Mode.Name)
		b.SetParam("clmeter cache", onOff(row.Mode.Ours))
		b.SetParam("driver cache", onOff(row.Mode.Driver))
		b.SetParam("trials", fmt.Sprint(len(row.Trials)))
		note := fmt.Sprintf("median of %d fresh processes", len(row.Trials))
		fig := func(name string, d time.Duration, note string) {
			b.Figures = append(b.Figures, results.Figure{Name: name, Value: float64(d) / 1e6, Unit: "ms", Note: note})
		}
		fig(figTTFR.Name, ms.TTFR.Median, note+" of enumeration + context + build + first launch")
		fig(figTTFR.Name+" min", ms.TTFR.Min, "")
		fig(figTTFR.Name+" max", ms.TTFR.Max, "")
		fig(figTTFR.Name+" less enumeration", ms.LessEnum, note+": what the caches can change (enumeration loads every ICD, whatever the caches)")
		launched := row.Trials[0].LaunchNote == ""
		for j, f := range ttfrParts {
			if j == 3 && !launched {
				continue
			}
			fig(f.Name, ms.Parts[j], note)
		}
		for j, f := range afterFigures {
			if j == 0 && !launched {
				continue
			}
			fig(f.Name, ms.After[j], note)
		}
		b.Figures = append(b.Figures,
			results.Figure{Name: "speedup over cold", Value: ratio(cold, ms.TTFR.Median), Unit: "x", Note: "median TTFR of cold over this mode's"},
			results.Figure{Name: "speedup over driver cache", Value: ratio(drv, ms.TTFR.Median), Unit: "x", Note: "median TTFR of the driver's cache alone over this mode's"})
		if i == modeMiss {
			b.Figures = append(b.Figures,
				results.Figure{Name: "wall time over cold", Value: ratio(ms.After[3], s.Modes[modeCold].After[3]), Unit: "x", Note: "a first run's process wall time over --no-cache's"},
				results.Figure{Name: "break-even runs", Value: float64(s.breakEven()), Unit: "runs", Note: "runs with both caches warm that repay the store against the driver's cache alone (0: never)"})
		}
		hits := 0
		for _, r := range row.Trials {
			if r.FromCache {
				hits++
			}
		}
		b.Program = &results.ProgramInfo{FromCache: hits == len(row.Trials), BuildTime: ms.Parts[2], Source: row.Program}
		b.Extra = map[string]any{"trials": row.Trials}
		if n := hitNote(row); n != "" {
			b.Extra["note"] = n
		}
		if n := row.Trials[0].LaunchNote; n != "" {
			b.Extra["launch_note"] = n
		}
		out = append(out, b)
	}
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// contextNote attributes a slower context creation to turning the driver's
// cache off (CUDA_CACHE_DISABLE=1 makes NVIDIA's 1.3-1.7 s instead of 0.12 s),
// when the modes with it off take over twice as long and 50 ms more.
func contextNote(s programSummary) string {
	var on, off []time.Duration
	for _, ms := range s.Modes {
		if ms.Row.Mode.Driver {
			on = append(on, ms.Parts[1])
		} else {
			off = append(off, ms.Parts[1])
		}
	}
	if len(on) == 0 || len(off) == 0 {
		return ""
	}
	a, b := slices.Min(off), slices.Max(on)
	if a > 2*b && a-b > 50*time.Millisecond {
		return fmt.Sprintf("context creation takes %s-%s ms with the driver's cache turned off against %s ms with it on: "+
			"the switch costs that, not the build (part of every driver-off mode's TTFR)", msText(a), msText(slices.Max(off)), msText(b))
	}
	return ""
}
