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
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// FormatVersion is the version of the stored profile's JSON. A stored profile
// of another version is ignored (measured again), never misread.
const FormatVersion = 1

// A Ceiling is one measured peak of a device.
type Ceiling struct {
	// Value is the measured rate in Unit ("GB/s", "GFLOP/s", "GIOP/s"): the best
	// median of the benchmarks that measure it.
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// From names the benchmark that set it ("peaks/bandwidth/copy/float4").
	From string `json:"from"`
	// Pattern is, for a bandwidth, the memory traffic that set it: "read-only",
	// "copy" or "read-modify-write".
	Pattern string `json:"pattern,omitempty"`
	// CacheSized marks a bandwidth measured over less than four times the
	// device's last-level cache (a --small run, the quick suite): part of it
	// may have come from the cache. It stands in until a figure measured over
	// more replaces it, whatever that figure's value (Beats).
	CacheSized bool `json:"cache_sized,omitempty"`
	// Theoretical is the vendor's figure in the same unit (zero when unknown)
	// and TheoryNote how it was computed ("132 SMs x 128 lanes x 1980 MHz x 2").
	Theoretical float64 `json:"theoretical,omitempty"`
	TheoryNote  string  `json:"theoretical_note,omitempty"`
}

// Beats reports whether c should replace old as a ceiling: a figure measured
// beyond the cache beats a cache-sized one; otherwise the higher value wins.
func (c *Ceiling) Beats(old *Ceiling) bool {
	switch {
	case c == nil:
		return false
	case old == nil:
		return true
	case c.CacheSized != old.CacheSized:
		return old.CacheSized
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

// A Profile is one device's measured ceilings.
type Profile struct {
	// Format is FormatVersion.
	Format int `json:"format"`
	Key    Key `json:"key"`
	// Device is the device as the runtime described it.
	Device results.DeviceInfo `json:"device"`
	// Updated is when a figure of it was last measured.
	Updated time.Time `json:"updated"`
	// Sources say what measured it: "clmeter suite peaks", "short profile".
	Sources []string `json:"sources"`
	// Short is true when any ceiling came from the short profile (fewer
	// patterns and widths: the ceilings may be low).
	Short bool `json:"short"`
	// Bandwidth is the global memory bandwidth ceiling (best of read-only,
	// copy and read-modify-write patterns); LocalBandwidth the local memory one.
	Bandwidth      *Ceiling `json:"global_bandwidth,omitempty"`
	LocalBandwidth *Ceiling `json:"local_bandwidth,omitempty"`
	// Patterns holds the best global memory bandwidth of each traffic pattern
	// ("read-only", "copy", "read-modify-write"); Bandwidth is the best of them.
	Patterns map[string]*Ceiling `json:"patterns,omitempty"`
	// Compute holds a ceiling per precision: "float", "double", "half", "int".
	Compute map[string]*Ceiling `json:"compute"`
	// LaunchLatency is an empty kernel's time per launch, back to back (host
	// timer); LaunchRoundTrip one enqueue + finish of it.
	LaunchLatency   time.Duration `json:"launch_latency_ns,omitempty"`
	LaunchRoundTrip time.Duration `json:"launch_round_trip_ns,omitempty"`
	// PinnedToDevice and PinnedToHost are the best pinned-memory transfer rates.
	PinnedToDevice *Ceiling `json:"pinned_to_device,omitempty"`
	PinnedToHost   *Ceiling `json:"pinned_to_host,omitempty"`
}

// Complete reports whether the profile has what a roofline needs: a bandwidth,
// a float compute ceiling and the launch latency.
func (p *Profile) Complete() bool {
	return p != nil && p.Bandwidth != nil && p.Compute["float"] != nil && p.LaunchLatency > 0
}

// Describe says in one line where the profile's figures came from.
func (p *Profile) Describe() string {
	s := strings.Join(p.Sources, " + ")
	if s == "" {
		s = "unknown"
	}
	d := fmt.Sprintf("%s, %s", s, p.Updated.Local().Format("2006-01-02 15:04"))
	if p.Short {
		d += " (short profile: run 'clmeter suite peaks' for full ceilings)"
	}
	return d
}

// Merge returns p with the figures n has folded in, keeping the rest of p (a
// suite measures only part of a profile). With replace (n is a full
// measurement: 'clmeter suite peaks'), n's figures replace p's; otherwise a
// ceiling only rises (a ceiling is the best any kernel did, and a later, noisier
// run must not lower it), while the launch latency and transfer rates are
// taken from n.
func Merge(p, n *Profile, replace bool) *Profile {
	if p == nil || p.Key != n.Key {
		c := *n
		return &c
	}
	m := *p
	m.Compute = map[string]*Ceiling{}
	for k, v := range p.Compute {
		m.Compute[k] = v
	}
	m.Patterns = map[string]*Ceiling{}
	for k, v := range p.Patterns {
		m.Patterns[k] = v
	}
	m.Device, m.Updated = n.Device, n.Updated
	short := false
	set := func(dst **Ceiling, src *Ceiling) {
		if src != nil {
			*dst = src
		}
	}
	raise := func(dst **Ceiling, src *Ceiling) {
		if src != nil && (replace || src.Beats(*dst)) {
			*dst = src
		}
	}
	raise(&m.Bandwidth, n.Bandwidth)
	raise(&m.LocalBandwidth, n.LocalBandwidth)
	set(&m.PinnedToDevice, n.PinnedToDevice)
	set(&m.PinnedToHost, n.PinnedToHost)
	for k, v := range n.Compute {
		c := m.Compute[k]
		raise(&c, v)
		m.Compute[k] = c
	}
	for k, v := range n.Patterns {
		c := m.Patterns[k]
		raise(&c, v)
		m.Patterns[k] = c
	}
	if n.LaunchLatency > 0 {
		m.LaunchLatency = n.LaunchLatency
	}
	if n.LaunchRoundTrip > 0 {
		m.LaunchRoundTrip = n.LaunchRoundTrip
	}
	// Short stays set while any short figure is left: a full measurement of
	// every figure clears it.
	short = p.Short && !(n.Bandwidth != nil && n.Compute["float"] != nil && n.LaunchLatency > 0 && !n.Short)
	m.Short = short || n.Short
	m.Sources = nil
	for _, s := range append(append([]string{}, p.Sources...), n.Sources...) {
		if !contains(m.Sources, s) {
			m.Sources = append(m.Sources, s)
		}
	}
	return &m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A Store keeps profiles as JSON files in a folder, one per Key.
type Store struct {
	Dir string
}

// DefaultStore is the store in CLMETER_PROFILE_DIR, else in the user's cache
// folder (~/.cache/clmeter/profiles on Linux).
func DefaultStore() (Store, error) {
	if d := os.Getenv("CLMETER_PROFILE_DIR"); d != "" {
		return Store{Dir: d}, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return Store{}, fmt.Errorf("device profiles: no user cache folder (%v): set CLMETER_PROFILE_DIR", err)
	}
	return Store{Dir: filepath.Join(base, "clmeter", "profiles")}, nil
}

// Path is where the profile of k is kept.
func (s Store) Path(k Key) string { return filepath.Join(s.Dir, k.FileName()) }

// ErrNoProfile is returned by Load when no usable profile is stored.
var ErrNoProfile = errors.New("no device profile stored")

// Load returns the stored profile of k. It returns an error wrapping
// ErrNoProfile when there is none, or when the stored one is of another format
// or another key (a damaged or foreign file is never used).
func (s Store) Load(k Key) (*Profile, error) {
	path := s.Path(k)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w for %s (driver %s)", ErrNoProfile, k.Device, k.DriverVersion)
	}
	if err != nil {
		return nil, err
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%w: %s is not a profile (%v)", ErrNoProfile, path, err)
	}
	if p.Format != FormatVersion {
		return nil, fmt.Errorf("%w: %s is of format %d, this clmeter reads %d", ErrNoProfile, path, p.Format, FormatVersion)
	}
	if p.Key != k {
		return nil, fmt.Errorf("%w: %s belongs to another device or driver", ErrNoProfile, path)
	}
	if p.Compute == nil {
		p.Compute = map[string]*Ceiling{}
	}
	return &p, nil
}

// Save writes p atomically (a temporary file in the same folder, synced, then
// renamed) and returns its path.
func (s Store) Save(p *Profile) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("device profiles: %w", err)
	}
	p.Format = FormatVersion
	if p.Compute == nil {
		p.Compute = map[string]*Ceiling{}
	}
	if p.Sources == nil {
		p.Sources = []string{}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", err
	}
	path := s.Path(p.Key)
	f, err := os.CreateTemp(s.Dir, ".profile-*")
	if err != nil {
		return "", fmt.Errorf("device profiles: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(append(b, '\n'))
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("device profiles: writing %s: %w", path, werr)
	}
	return path, nil
}

// Lines writes the profile's ceilings for people, one a line: each measured
// figure with what set it, beside the theoretical one and the percentage of it
// where known.
func (p *Profile) Lines() []string {
	var out []string
	ceiling := func(what string, c *Ceiling, unit string) {
		if c == nil {
			return
		}
		s := fmt.Sprintf("%s %s (%s", what, units.Rate(c.Value, unit), c.From)
		if c.Pattern != "" && what == "global memory bandwidth" {
			s += ", " + c.Pattern + " pattern"
		}
		s += ")"
		if c.CacheSized {
			s += "; measured over less than 4x the last-level cache, so partly the cache's: 'clmeter suite peaks' measures beyond it"
		}
		if c.Theoretical > 0 {
			s += fmt.Sprintf("; theoretical %s (%s): measured is %.0f%% of it", units.Rate(c.Theoretical, unit), c.TheoryNote, c.Percent())
		}
		out = append(out, s)
	}
	ceiling("global memory bandwidth", p.Bandwidth, "B")
	if len(p.Patterns) > 1 {
		var parts []string
		for _, pat := range []string{"read-only", "copy", "read-modify-write"} {
			if c := p.Patterns[pat]; c != nil {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", pat, units.Rate(c.Value, "B"), c.From))
			}
		}
		out = append(out, "  by pattern: "+strings.Join(parts, ", "))
	}
	ceiling("local memory bandwidth", p.LocalBandwidth, "B")
	for _, typ := range []string{"float", "double", "half", "int"} {
		unit := "FLOP"
		if typ == "int" {
			unit = "IOP"
		}
		ceiling(typ+" compute", p.Compute[typ], unit)
	}
	if p.LaunchLatency > 0 {
		s := "launch " + units.Duration(p.LaunchLatency) + " an empty kernel, back to back"
		if p.LaunchRoundTrip > 0 {
			s += "; " + units.Duration(p.LaunchRoundTrip) + " enqueue + finish"
		}
		out = append(out, s)
	}
	ceiling("pinned transfers to the device", p.PinnedToDevice, "B")
	ceiling("pinned transfers to the host", p.PinnedToHost, "B")
	return out
}
