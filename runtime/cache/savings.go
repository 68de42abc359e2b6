package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/units"
)

// savingsFile, in the cache folder, holds what 'clmeter cache bench' last
// measured on each device (Savings, a JSON list).
const savingsFile = "savings.json"

// Savings is what 'clmeter cache bench' measured each cache to save on one
// device: the time to first result (TTFR: enumeration + context + build + first
// launch, median of fresh processes) of each program in each mode.
type Savings struct {
	Platform      string    `json:"platform"`
	Device        string    `json:"device"`
	DriverVersion string    `json:"driver_version"`
	Family        string    `json:"family"`
	Measured      time.Time `json:"measured"`
	// Programs are the programs measured, in order.
	Programs []ProgramSavings `json:"programs"`
	// Verdict says which cache saves what, in one line.
	Verdict string `json:"verdict"`
}

// ProgramSavings are one program's medians.
type ProgramSavings struct {
	Program string `json:"program"`
	// TTFR with both caches off, the driver's alone, clmeter's alone, both.
	Cold   time.Duration `json:"cold_ns"`
	Driver time.Duration `json:"driver_ns"`
	Ours   time.Duration `json:"clmeter_ns"`
	Both   time.Duration `json:"both_ns"`
	// MissStore is what a miss spends storing after the work; BreakEven the
	// runs with both caches warm that repay it against the driver's cache alone
	// (0: never).
	MissStore time.Duration `json:"miss_store_ns"`
	BreakEven int           `json:"break_even_runs"`
}

// Summary is one line of a program's figures for people.
func (p ProgramSavings) Summary() string {
	x := func(a, b time.Duration) string { return fmt.Sprintf("%.1fx", float64(a)/float64(max(b, 1))) }
	be := "never repaid"
	if p.BreakEven > 0 {
		be = fmt.Sprintf("repaid after %d runs", p.BreakEven)
	}
	return fmt.Sprintf("%s: time to first result cold %s, driver's cache %s (%s), clmeter's %s (%s), both %s (%s faster than the driver's alone); a miss stores for %s, %s",
		p.Program, units.Milliseconds(p.Cold)+" ms", units.Milliseconds(p.Driver)+" ms", x(p.Cold, p.Driver),
		units.Milliseconds(p.Ours)+" ms", x(p.Cold, p.Ours), units.Milliseconds(p.Both)+" ms", x(p.Driver, p.Both),
		units.Milliseconds(p.MissStore)+" ms", be)
}

// sameDevice says whether two records are of one device and driver.
func (s Savings) sameDevice(o Savings) bool {
	return s.Platform == o.Platform && s.Device == o.Device && s.DriverVersion == o.DriverVersion
}

// Savings returns the recorded measurements, most recent first (none: an
// empty list).
func (c *Cache) Savings() ([]Savings, error) {
	b, err := os.ReadFile(filepath.Join(c.Dir, savingsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return []Savings{}, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Savings
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it; clmeter cache bench writes it again)", filepath.Join(c.Dir, savingsFile), err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Measured.After(out[j].Measured) })
	return out, nil
}

// SavingsFor returns the record of d's device and driver, if any.
func (c *Cache) SavingsFor(d *runtime.Device) (Savings, bool) {
	all, err := c.Savings()
	if err != nil {
		return Savings{}, false
	}
	want := Savings{Platform: d.Platform.Name, Device: d.Info.Name, DriverVersion: d.Info.DriverVersion}
	for _, s := range all {
		if s.sameDevice(want) {
			return s, true
		}
	}
	return Savings{}, false
}

// RecordSavings keeps s as the measurement of its device, replacing an older
// one, in a file written atomically.
func (c *Cache) RecordSavings(s Savings) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	all, _ := c.Savings() // a damaged file is replaced
	out := []Savings{s}
	for _, o := range all {
		if !o.sameDevice(s) {
			out = append(out, o)
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(c.Dir, savingsFile), append(b, '\n'), c.clock())
}
