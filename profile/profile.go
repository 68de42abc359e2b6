// Package profile measures, stores and uses a device's profile: its measured
// ceilings (global and local memory bandwidth, compute per precision, launch
// latency, pinned transfer bandwidth) beside the vendor's theoretical figures
// where known. It places a benchmark on the device's roofline with a verdict
// and its evidence (memory-bound, compute-bound, launch-bound, under-filled),
// and reads what a kernel takes of the device (work-group limits, local and
// private memory, registers and spills from the build log).
package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// FormatVersion is the version of the stored profile's JSON. A stored profile
// of another version is ignored (measured again), never misread. Version 2
// keeps where each figure came from and never holds a cache-sized bandwidth
// as a memory ceiling: a version-1 profile may, so it is measured again.
const FormatVersion = 2

// An Origin says where a figure of a profile came from.
type Origin struct {
	// From names the benchmark that measured it ("peaks/bandwidth/copy/float4").
	From string `json:"from"`
	// Source says what ran that benchmark ("clmeter suite peaks", "short
	// profile", "result file r.json") and Measured when.
	Source   string    `json:"source,omitempty"`
	Measured time.Time `json:"measured,omitempty"`
}

// text is the origin for people: "peaks/bandwidth/copy/float4; clmeter suite
// peaks, 2026-11-24 23:10".
func (o Origin) text() string {
	s := o.From
	if o.Source != "" {
		s += "; " + o.Source
	}
	if !o.Measured.IsZero() {
		s += ", " + o.Measured.Local().Format("2006-01-02 15:04")
	}
	return s
}

// A Ceiling is one measured peak of a device: the best any benchmark that
// measures it did.
type Ceiling struct {
	// Value is the measured rate in Unit ("GB/s", "GFLOP/s", "GIOP/s"): the best
	// median of the benchmarks that measure it.
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	Origin
	// Pattern is, for a bandwidth, the memory traffic that set it: "read-only",
	// "copy" or "read-modify-write".
	Pattern string `json:"pattern,omitempty"`
	// BytesPerLaunch is, for a bandwidth, what one launch of the benchmark
	// moved (zero when unknown).
	BytesPerLaunch int64 `json:"bytes_per_launch,omitempty"`
	// WorkingSet is, for a memory bandwidth, the bytes its benchmark worked
	// over, and OffPlateau whether that working set was where the memory
	// budget stopped the search before the figure plateaued (the suites'
	// "size" and "plateau" parameters): such a figure may still hold some of
	// a cache's speed.
	WorkingSet int64 `json:"working_set,omitempty"`
	OffPlateau bool  `json:"off_plateau,omitempty"`
	// Theoretical is the vendor's figure in the same unit (zero when unknown)
	// and TheoryNote how it was computed ("132 SMs x 128 lanes x 1980 MHz x 2").
	Theoretical float64 `json:"theoretical,omitempty"`
	TheoryNote  string  `json:"theoretical_note,omitempty"`
}

// Beats reports whether c should replace old as a ceiling: the higher value
// wins (a ceiling is the best any benchmark did; a later, weaker or noisier
// run never lowers it; only a reset or rebuild does).
func (c *Ceiling) Beats(old *Ceiling) bool {
	switch {
	case c == nil:
		return false
	case old == nil:
		return true
	case c.OffPlateau != old.OffPlateau:
		// A figure on the memory plateau beats one measured short of it.
		return old.OffPlateau
	case c.OffPlateau && c.Pattern == old.Pattern && c.WorkingSet != old.WorkingSet && c.WorkingSet > 0 && old.WorkingSet > 0:
		// Short of the plateau, of one traffic pattern, the larger working
		// set is nearer memory's figure, whatever the values (a smaller one
		// keeps more of a cache). Across patterns the values decide: a
		// slower triad over larger arrays is not nearer a read's ceiling.
		return c.WorkingSet > old.WorkingSet
	}
	return c.Value > old.Value
}

// Percent is the measured value as a percentage of the theoretical one (zero
// when there is none).
func (c *Ceiling) Percent() float64 {
	if c == nil || c.Theoretical <= 0 {
		return 0
	}
	return 100 * c.Value / c.Theoretical
}

// A Latency is one measured time of a device, a floor: the best (lowest)
// median of the benchmarks that measure it.
type Latency struct {
	Value time.Duration `json:"ns"`
	Origin
}

// Beats reports whether l should replace old: the lower time wins.
func (l *Latency) Beats(old *Latency) bool {
	switch {
	case l == nil || l.Value <= 0:
		return false
	case old == nil || old.Value <= 0:
		return true
	}
	return l.Value < old.Value
}

// A Key identifies the device and driver a profile belongs to: a new driver
// gets a new profile.
type Key struct {
	Platform        string `json:"platform"`
	PlatformVersion string `json:"platform_version"`
	Device          string `json:"device"`
	DriverVersion   string `json:"driver_version"`
}

// KeyOf returns the key of a device as a result file describes it.
func KeyOf(d results.DeviceInfo) Key {
	return Key{Platform: d.Platform, PlatformVersion: d.PlatformVersion, Device: d.Name, DriverVersion: d.DriverVersion}
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName is the profile's file name: a readable part of the device name and
// a hash of the whole key.
func (k Key) FileName() string {
	h := sha256.Sum256([]byte(k.Platform + "\x00" + k.PlatformVersion + "\x00" + k.Device + "\x00" + k.DriverVersion))
	name := strings.Trim(unsafeChars.ReplaceAllString(k.Device, "-"), "-")
	if len(name) > 40 {
		name = name[:40]
	}
	if name == "" {
		name = "device"
	}
	return name + "-" + hex.EncodeToString(h[:6]) + ".json"
}

// ShortSource is the Source of the figures of the short profile (fewer
// patterns and widths: they may be low).
const ShortSource = "short profile"

// A Profile is one device's measured ceilings, each the best of every
// measurement folded into it (Merge), with its Origin.
type Profile struct {
	// Format is FormatVersion.
	Format int `json:"format"`
	Key    Key `json:"key"`
	// Device is the device as the runtime described it.
	Device results.DeviceInfo `json:"device"`
	// Updated is when a measurement was last folded in.
	Updated time.Time `json:"updated"`
	// Bandwidth is the global memory bandwidth ceiling (best of read-only,
	// copy and read-modify-write patterns), measured beyond the device's
	// caches (SlotOf); LocalBandwidth the local memory one.
	Bandwidth      *Ceiling `json:"global_bandwidth,omitempty"`
	LocalBandwidth *Ceiling `json:"local_bandwidth,omitempty"`
	// Patterns holds the best global memory bandwidth of each traffic pattern
	// ("read-only", "copy", "read-modify-write"); Bandwidth is the best of them.
	Patterns map[string]*Ceiling `json:"patterns,omitempty"`
	// CacheBandwidth is the best global bandwidth of a working set that fits
	// in the device's caches (SlotOf region "cache": a --small run, the
	// quick suite's streams on a large cache). It is a figure of the caches,
	// never a memory ceiling.
	CacheBandwidth *Ceiling `json:"cache_bandwidth,omitempty"`
	// CachePatterns holds the best bandwidth of each traffic pattern within
	// the caches; CacheBandwidth is the best of them. A kernel whose working
	// set fits in the caches is placed under its own pattern's (Place).
	CachePatterns map[string]*Ceiling `json:"cache_patterns,omitempty"`
	// Compute holds a ceiling per precision: "float", "double", "half", "int".
	Compute map[string]*Ceiling `json:"compute"`
	// Launch is an empty kernel's time per launch, back to back (host timer),
	// at its cheapest local size: the launch floor. LaunchRoundTrip is one
	// enqueue + finish of it.
	Launch          *Latency `json:"launch,omitempty"`
	LaunchRoundTrip *Latency `json:"launch_round_trip,omitempty"`
	// PinnedToDevice and PinnedToHost are the best pinned-memory transfer rates.
	PinnedToDevice *Ceiling `json:"pinned_to_device,omitempty"`
	PinnedToHost   *Ceiling `json:"pinned_to_host,omitempty"`
}

// LaunchLatency is the launch floor (Launch), zero when unknown.
func (p *Profile) LaunchLatency() time.Duration {
	if p == nil || p.Launch == nil {
		return 0
	}
	return p.Launch.Value
}

// Complete reports whether the profile has what a roofline needs: a bandwidth,
// a float compute ceiling and the launch latency.
func (p *Profile) Complete() bool {
	return p != nil && p.Bandwidth != nil && p.Compute["float"] != nil && p.LaunchLatency() > 0
}

// Short reports whether the bandwidth or the float compute ceiling came from
// the short profile (fewer patterns and widths: it may be low).
func (p *Profile) Short() bool {
	return p.Bandwidth != nil && p.Bandwidth.Source == ShortSource || p.Compute["float"] != nil && p.Compute["float"].Source == ShortSource
}

// figures calls f with every figure's name and origin, in the order Lines
// shows them.
func (p *Profile) figures(f func(name string, o Origin)) {
	c := func(name string, x *Ceiling) {
		if x != nil {
			f(name, x.Origin)
		}
	}
	c("global memory bandwidth", p.Bandwidth)
	for _, pat := range []string{"read-only", "copy", "read-modify-write"} {
		c(pat+" bandwidth", p.Patterns[pat])
	}
	c("cache bandwidth", p.CacheBandwidth)
	c("local memory bandwidth", p.LocalBandwidth)
	for _, typ := range computeOrder(p.Compute) {
		c(typ+" compute", p.Compute[typ])
	}
	if p.Launch != nil {
		f("launch", p.Launch.Origin)
	}
	if p.LaunchRoundTrip != nil {
		f("launch round trip", p.LaunchRoundTrip.Origin)
	}
	c("pinned transfers to the device", p.PinnedToDevice)
	c("pinned transfers to the host", p.PinnedToHost)
}

// computeOrder is the precisions of m: float, double, half, int, then the
// rest sorted.
func computeOrder(m map[string]*Ceiling) []string {
	var out, rest []string
	known := []string{"float", "double", "half", "int", "int24", "short", "char"}
	for _, k := range known {
		if m[k] != nil {
			out = append(out, k)
		}
	}
	for k := range m {
		if !contains(known, k) && m[k] != nil {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// Sources are what measured the profile's figures, each once, in the order
// Lines shows the figures.
func (p *Profile) Sources() []string {
	var out []string
	p.figures(func(_ string, o Origin) {
		if s := o.Source; s != "" && !contains(out, s) {
			out = append(out, s)
		}
	})
	return out
}

// Describe says in one line where the profile's figures came from.
func (p *Profile) Describe() string {
	s := strings.Join(p.Sources(), " + ")
	if s == "" {
		s = "unknown"
	}
	d := fmt.Sprintf("%s, %s", s, p.Updated.Local().Format("2006-01-02 15:04"))
	if p.Short() {
		d += " (short profile: run 'clmeter suite peaks' for full ceilings)"
	}
	return d
}

// Merge returns p with the measurement n folded in (a suite measures only
// part of a profile): each figure is the best of the two, ceilings the higher
// and launch times the lower, with the origin of the one kept. A later,
// weaker, smaller or noisier measurement never lowers a figure, whatever
// measured it (a full 'clmeter suite peaks' included): only Store.Remove
// ('clmeter profile reset') or a rebuild from result files ('clmeter profile
// rebuild') do. notes say, for each figure n measured at less than 90% of
// the one kept, that it was kept and from where. p and n are not changed.
func Merge(p, n *Profile) (m *Profile, notes []string) {
	if p == nil || p.Key != n.Key {
		c := *n
		c.Compute, c.Patterns, c.CachePatterns = copyMap(n.Compute), copyMap(n.Patterns), copyMap(n.CachePatterns)
		return &c, nil
	}
	c := *p
	m = &c
	m.Compute, m.Patterns, m.CachePatterns = copyMap(p.Compute), copyMap(p.Patterns), copyMap(p.CachePatterns)
	m.Device = n.Device
	if n.Updated.After(m.Updated) {
		m.Updated = n.Updated
	}
	best := func(name string, dst **Ceiling, src *Ceiling) {
		switch {
		case src == nil:
		case src.Beats(*dst):
			*dst = src
		case src.Value < 0.9*(*dst).Value:
			notes = append(notes, fmt.Sprintf("%s: kept %s (%s); this measurement gave %s",
				name, rate((*dst).Value, (*dst).Unit), (*dst).Origin.text(), rate(src.Value, src.Unit)))
		}
	}
	least := func(name string, dst **Latency, src *Latency) {
		switch {
		case src == nil || src.Value <= 0:
		case src.Beats(*dst):
			*dst = src
		case float64(src.Value) > float64((*dst).Value)/0.9:
			notes = append(notes, fmt.Sprintf("%s: kept %s (%s); this measurement gave %s",
				name, units.Duration((*dst).Value), (*dst).Origin.text(), units.Duration(src.Value)))
		}
	}
	best("global memory bandwidth", &m.Bandwidth, n.Bandwidth)
	best("cache bandwidth", &m.CacheBandwidth, n.CacheBandwidth)
	best("local memory bandwidth", &m.LocalBandwidth, n.LocalBandwidth)
	best("pinned transfers to the device", &m.PinnedToDevice, n.PinnedToDevice)
	best("pinned transfers to the host", &m.PinnedToHost, n.PinnedToHost)
	for _, k := range computeOrder(n.Compute) {
		c := m.Compute[k]
		best(k+" compute", &c, n.Compute[k])
		m.Compute[k] = c
	}
	for _, k := range []string{"read-only", "copy", "read-modify-write"} {
		if n.Patterns[k] != nil {
			c := m.Patterns[k]
			best(k+" bandwidth", &c, n.Patterns[k])
			m.Patterns[k] = c
		}
		if n.CachePatterns[k] != nil {
			c := m.CachePatterns[k]
			best(k+" cache bandwidth", &c, n.CachePatterns[k])
			m.CachePatterns[k] = c
		}
	}
	least("launch", &m.Launch, n.Launch)
	least("launch round trip", &m.LaunchRoundTrip, n.LaunchRoundTrip)
	return m, notes
}

func copyMap(in map[string]*Ceiling) map[string]*Ceiling {
	out := map[string]*Ceiling{}
	for k, v := range in {
		out[k] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Lines writes the profile's figures for people, one a line: each with the
// benchmark that measured it, what ran it and when, beside the theoretical
// figure and the percentage of it where known.
func (p *Profile) Lines() []string {
	var out []string
	ceiling := func(what string, c *Ceiling, unit, note string) {
		if c == nil {
			return
		}
		s := fmt.Sprintf("%s %s (%s", what, units.Rate(c.Value, unit), c.Origin.text())
		if c.Pattern != "" && what == "global memory bandwidth" {
			s += "; " + c.Pattern + " pattern"
		}
		s += ")" + note
		if c.Theoretical > 0 {
			s += fmt.Sprintf("; theoretical %s (%s): measured is %.0f%% of it", units.Rate(c.Theoretical, unit), c.TheoryNote, c.Percent())
		}
		out = append(out, s)
	}
	ceiling("global memory bandwidth", p.Bandwidth, "B", "")
	switch {
	case p.Bandwidth == nil && p.CacheBandwidth != nil:
		out = append(out, "global memory bandwidth: none measured beyond the device's caches: run 'clmeter suite peaks'")
	case p.Bandwidth == nil:
		out = append(out, "global memory bandwidth: not measured: run 'clmeter suite peaks'")
	}
	if len(p.Patterns) > 1 {
		var parts []string
		for _, pat := range []string{"read-only", "copy", "read-modify-write"} {
			if c := p.Patterns[pat]; c != nil {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", pat, units.Rate(c.Value, "B"), c.From))
			}
		}
		out = append(out, "  by pattern: "+strings.Join(parts, ", "))
	}
	ceiling("cache bandwidth", p.CacheBandwidth, "B", ": a working set within the device's caches, not a memory ceiling")
	if len(p.CachePatterns) > 1 {
		var parts []string
		for _, pat := range []string{"read-only", "copy", "read-modify-write"} {
			if c := p.CachePatterns[pat]; c != nil {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", pat, units.Rate(c.Value, "B"), c.From))
			}
		}
		out = append(out, "  in the caches by pattern: "+strings.Join(parts, ", "))
	}
	ceiling("local memory bandwidth", p.LocalBandwidth, "B", "")
	for _, typ := range computeOrder(p.Compute) {
		unit := "FLOP"
		if !strings.HasSuffix(p.Compute[typ].Unit, "FLOP/s") {
			unit = "IOP"
		}
		ceiling(typ+" compute", p.Compute[typ], unit, "")
	}
	if l := p.Launch; l != nil {
		s := "launch " + units.Duration(l.Value) + " an empty kernel, back to back, at its cheapest local size (" + l.Origin.text() + ")"
		if r := p.LaunchRoundTrip; r != nil {
			s += "; " + units.Duration(r.Value) + " enqueue + finish (" + r.Origin.text() + ")"
		}
		out = append(out, s)
	}
	ceiling("pinned transfers to the device", p.PinnedToDevice, "B", "")
	ceiling("pinned transfers to the host", p.PinnedToHost, "B", "")
	return out
}
