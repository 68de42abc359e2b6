package runner

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/clocks"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
)

// analysis adds what the profile package says about each benchmark of a run:
// the roofline placement against the device's profile, the clocks around it,
// and (verbose) the kernel's resources.
type analysis struct {
	store     profile.Folder
	storeErr  error
	noProfile bool
	verbose   bool
	stderr    io.Writer
	profiles  map[*runtime.Device]*profile.Profile
	mon       *clocks.Monitor
}

func newAnalysis(profileDir string, noProfile, verbose bool, stderr io.Writer) *analysis {
	st, err := profile.DefaultFolder(profileDir)
	return &analysis{store: st, storeErr: err, noProfile: noProfile, verbose: verbose, stderr: stderr,
		profiles: map[*runtime.Device]*profile.Profile{}, mon: clocks.Open()}
}

func (a *analysis) close() { a.mon.Close() }

// profileOf returns dev's profile, loading or (unless noProfile) measuring a
// short one on first use, and says on stderr which; nil when there is none.
func (a *analysis) profileOf(ctx context.Context, dev *runtime.Device) *profile.Profile {
	if p, ok := a.profiles[dev]; ok {
		return p
	}
	a.profiles[dev] = nil
	if a.storeErr != nil {
		fmt.Fprintf(a.stderr, "no roofline: %v\n", a.storeErr)
		return nil
	}
	if _, err := a.store.Load(profile.KeyOf(dev.Describe())); err != nil && !a.noProfile {
		fmt.Fprintf(a.stderr, "measuring a short profile of %s (once; --no-profile skips it) ...\n", dev.Info.Name)
	}
	p, note, err := profile.LoadOrMeasure(ctx, a.store, dev, !a.noProfile, profile.MeasureOptions{})
	if err != nil {
		fmt.Fprintf(a.stderr, "no roofline: device profile of %s: %v\n", dev.Info.Name, err)
		return nil
	}
	table.WriteWrapped(a.stderr, note, table.Width(a.stderr), "", "    ")
	a.profiles[dev] = p
	return p
}

// watch starts watching dev's clocks.
func (a *analysis) watch(dev *runtime.Device) *clocks.Watch {
	return a.mon.Watch(clocks.DeviceID{Name: dev.Info.Name, PCIBus: dev.Info.NVPCIBusID})
}

// annotate sets rb's roofline and (verbose) resources. The device's profile
// is loaded (or measured) after its first benchmark ran, so that bad input
// fails before anything else is measured.
func (a *analysis) annotate(ctx context.Context, dev *runtime.Device, kb *runtime.KernelBenchmark, precision string, rb *results.Benchmark) {
	m := rb.Measurement
	if m == nil || len(m.Samples) == 0 || ctx.Err() != nil {
		return
	}
	if p := a.profileOf(ctx, dev); p != nil {
		k := profile.Kernel{BytesPerLaunch: kb.BytesPerLaunch, OpsPerLaunch: kb.OpsPerLaunch, OpsUnit: kb.OpsUnit,
			Precision: precision, Traffic: kb.Traffic, Median: m.Summary.Median, WorkItems: 1}
		for _, g := range kb.Global {
			k.WorkItems *= int64(g)
		}
		if len(kb.Local) == len(kb.Global) {
			k.WorkGroups = 1
			for i, l := range kb.Local {
				k.WorkGroups *= int64((kb.Global[i] + l - 1) / l)
			}
		}
		rb.Roofline = profile.Place(p, k, profile.Settings{})
		if profile.NeedsVectorisation(rb.Roofline, p) {
			v := profile.PoCLVectorisation(ctx, dev, kb.Kernel, kb.Local)
			k.Vector = &v
			rb.Roofline = profile.Place(p, k, profile.Settings{})
		}
	}
	if a.verbose {
		r, err := profile.KernelResources(dev, kb.Source, kb.Options, kb.Kernel)
		if err != nil {
			fmt.Fprintf(a.stderr, "kernel resources of %s: %v\n", kb.Kernel, err)
			return
		}
		rb.Resources = r
	}
}

// boundCell is the run table's BOUND column: the verdict and the percentage
// of the roof.
func boundCell(b results.Benchmark) string {
	if b.Roofline == nil {
		return "-"
	}
	return b.Roofline.Bound()
}

// analysisNotes are the run table's notes of b: the roofline's evidence, the
// clocks and (verbose) the resources.
func analysisNotes(b results.Benchmark, prefix string, verbose bool) []string {
	var notes []string
	if r := b.Roofline; r != nil {
		notes = append(notes, prefix+"roofline: "+r.Verdict+": "+strings.Join(r.Evidence, "; "))
	}
	if c := b.Clocks; c != nil {
		if c.Warning != "" {
			notes = append(notes, prefix+"warning: clocks: "+c.Warning)
		} else if verbose && c.Observable {
			notes = append(notes, fmt.Sprintf("%sclocks: SM %d-%d MHz, memory %d MHz, up to %d C and %.0f W over %d readings", prefix,
				c.Min.SMClockMHz, c.Max.SMClockMHz, c.Start.MemoryClockMHz, c.Max.TemperatureC, c.Max.PowerWatts, c.Readings))
		} else if verbose {
			notes = append(notes, prefix+c.Note)
		}
	}
	if verbose && b.Resources != nil {
		notes = append(notes, prefix+"resources: "+profile.ResourcesText(b.Resources))
	}
	return notes
}

// updateProfile folds a suite's benchmarks on dev into its stored profile
// when the suite feeds it (clkernels.Suite.Profile), measures what it still
// lacks as steps of their own when the suite fills it (FillProfile), and
// prints the profile.
func updateProfile(ctx context.Context, o SuiteOptions, dev *runtime.Device, done []results.Benchmark, stdout, stderr io.Writer) {
	suite, _ := clkernels.LookupSuite(o.Suite)
	if o.NoProfile || !suite.Profile {
		return
	}
	st, err := profile.DefaultFolder(o.ProfileDir)
	if err != nil {
		fmt.Fprintf(stderr, "device profile not saved: %v\n", err)
		return
	}
	p, path, notes, err := profile.Update(st, dev, done, "clmeter suite "+o.Suite)
	if err == nil && p != nil && suite.FillProfile {
		p, path, err = fillProfile(ctx, o, st, dev, p, path, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "device profile not saved: %v\n", err)
		return
	}
	if p == nil {
		return
	}
	fmt.Fprintf(stdout, "\ndevice profile of %s (%s), saved in %s:\n", dev.Info.Name, p.Describe(), path)
	for _, l := range p.Lines() {
		fmt.Fprintln(stdout, "  "+l)
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "  note: "+n)
	}
	if len(notes) > 0 {
		fmt.Fprintln(stdout, "  (a profile keeps each figure's best; 'clmeter profile reset' forgets them, 'clmeter profile rebuild FILE...' makes one from result files)")
	}
}

// fillProfile measures the parts p lacks as the short profile's steps, in
// a sequence of their own after the suite's, and saves p with them.
func fillProfile(ctx context.Context, o SuiteOptions, st profile.Folder, dev *runtime.Device, p *profile.Profile, path string, stderr io.Writer) (*profile.Profile, string, error) {
	mo := profile.MeasureOptions{Small: o.Small, MaxMemory: o.MaxMemory, Progress: func(name string) { fmt.Fprintf(stderr, "  %s\n", name) }}
	if o.Small {
		mo.Settings = o.Settings
	}
	steps, parts, err := profile.MissingSteps(ctx, dev, p, mo)
	if err != nil || len(steps) == 0 {
		return p, path, err
	}
	fmt.Fprintf(stderr, "  device profile: measuring what the suite did not (%s) ...\n", strings.Join(parts, ", "))
	bs, err := profile.RunShort(ctx, dev, steps, mo)
	if err != nil {
		return nil, "", err
	}
	return profile.Fill(st, dev, p, bs)
}
