package cache

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// EntryReport is one entry as 'clmeter cache list --format json' and 'cache
// verify --format json' print it.
type EntryReport struct {
	Key       string    `json:"key"`
	Device    string    `json:"device,omitempty"`
	Platform  string    `json:"platform,omitempty"`
	Source    string    `json:"source,omitempty"`
	Options   string    `json:"options,omitempty"`
	SizeBytes int64     `json:"size_bytes"`
	LastUsed  time.Time `json:"last_used"`
	Created   time.Time `json:"created,omitzero"`
	Error     string    `json:"error,omitempty"`
}

// Report is e as the cache commands print it.
func (e Entry) Report() EntryReport {
	j := EntryReport{Key: e.Key, SizeBytes: e.Size, LastUsed: e.Used.UTC()}
	if e.Header != nil {
		j.Device, j.Platform, j.Source, j.Options, j.Created = e.Header.Device, e.Header.Platform, e.Header.Source, e.Header.Options, e.Header.Created
	}
	if e.Err != nil {
		j.Error = e.Err.Error()
	}
	return j
}

// WriteStats writes the folder's Stats ('clmeter cache stats'): a table and
// what each cache saves per device measured, or JSON.
func (c *Cache) WriteStats(w io.Writer, asJSON bool) error {
	s, err := c.Stats()
	if err != nil {
		return fmt.Errorf("cache stats: %w", err)
	}
	if asJSON {
		return writeJSON(w, s)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "folder\t%s\n", s.Dir)
	fmt.Fprintf(tw, "entries\t%d\n", s.Entries)
	bound := "none"
	if s.MaxBytes > 0 {
		bound = fmt.Sprintf("%s (%.0f%% used)", units.Bytes(s.MaxBytes), 100*float64(s.Bytes)/float64(s.MaxBytes))
	}
	fmt.Fprintf(tw, "size\t%s\n", units.Bytes(s.Bytes))
	fmt.Fprintf(tw, "bound\t%s\n", bound)
	rate := "-"
	if s.Hits+s.Misses > 0 {
		rate = fmt.Sprintf("%.0f%%", 100*float64(s.Hits)/float64(s.Hits+s.Misses))
	}
	fmt.Fprintf(tw, "hits / misses\t%d / %d (hit rate %s)\n", s.Hits, s.Misses, rate)
	fmt.Fprintf(tw, "rejected / evicted\t%d / %d\n", s.Rejected, s.Evictions)
	if err := tw.Flush(); err != nil {
		return err
	}
	return WriteSavings(w, s.Savings)
}

// WriteList writes the entries, most recently used first ('clmeter cache
// list'): a table, or a JSON list ([] when empty).
func (c *Cache) WriteList(w io.Writer, asJSON bool) error {
	es, err := c.Entries()
	if err != nil {
		return fmt.Errorf("cache list: %w", err)
	}
	if asJSON {
		return writeJSON(w, reports(es))
	}
	if len(es) == 0 {
		fmt.Fprintf(w, "no entries in %s\n", c.Dir)
		return nil
	}
	return writeEntryTable(w, es, false)
}

// WriteVerify checks every entry as a build would ('clmeter cache verify'):
// an entry of a device of this machine is also loaded on it (once proven on
// the device's driver); without OpenCL, the files alone. It removes the bad
// ones, writes every entry with its status and returns an error when any was
// bad.
func (c *Cache) WriteVerify(w io.Writer, asJSON bool) error {
	var devs []*runtime.Device
	if es, _ := c.Entries(); len(es) > 0 {
		m := runtime.NewManager()
		defer m.Close()
		devs, _ = m.Devices()
	}
	es, err := c.VerifyOn(devs)
	if err != nil {
		return fmt.Errorf("cache verify: %w", err)
	}
	bad := 0
	for _, e := range es {
		if e.Err != nil {
			bad++
		}
	}
	if asJSON {
		if err := writeJSON(w, reports(es)); err != nil {
			return err
		}
	} else {
		if len(es) > 0 {
			if err := writeEntryTable(w, es, true); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "%d entries checked, %d bad (removed)\n", len(es), bad)
	}
	if bad > 0 {
		return fmt.Errorf("cache verify: %d of %d entries were bad and were removed", bad, len(es))
	}
	return nil
}

// reports are es as the JSON formats print them.
func reports(es []Entry) []EntryReport {
	out := make([]EntryReport, 0, len(es))
	for _, e := range es {
		out = append(out, e.Report())
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func shortKey(k string) string {
	if len(k) > 12 {
		return k[:12]
	}
	return k
}

// writeEntryTable writes es as a table per device, each device named above
// its table, fitted to the width of w (table.Width), with each one's status
// when withStatus (verify).
func writeEntryTable(w io.Writer, es []Entry, withStatus bool) error {
	var order []string
	byDev := map[string][]Entry{}
	for _, e := range es {
		dev := "?"
		if e.Header != nil {
			dev = e.Header.Device
		}
		if _, ok := byDev[dev]; !ok {
			order = append(order, dev)
		}
		byDev[dev] = append(byDev[dev], e)
	}
	width := table.Width(w)
	now := time.Now()
	for i, dev := range order {
		if i > 0 {
			fmt.Fprintln(w)
		}
		table.WriteWrapped(w, "on "+dev, width, "", "  ")
		cols := []table.Column{{Header: "KEY"}, {Header: "SOURCE", Wrap: true},
			{Header: "SIZE", Right: true}, {Header: "LAST USED", Short: "USED", Right: true, Drop: 1}}
		if withStatus {
			cols = append(cols, table.Column{Header: "STATUS", Wrap: true})
		}
		t := table.New(cols...)
		for _, e := range byDev[dev] {
			src := "?"
			if e.Header != nil {
				src = e.Header.Source
			}
			st := "ok"
			if e.Err != nil {
				st = "removed: " + e.Err.Error()
			}
			t.Row(shortKey(e.Key), src, units.Bytes(e.Size), now.Sub(e.Used).Round(time.Second).String()+" ago", st)
		}
		if err := t.Write(w, width); err != nil {
			return err
		}
	}
	return nil
}

// WriteAdvice prints what each binary cache saves on a device: clmeter's
// policy for its driver and, when 'cache bench' ran here, the measured
// figures (s; nil when it did not).
func WriteAdvice(w io.Writer, indent string, pol Policy, s *Savings) {
	WritePolicy(w, indent, pol)
	if s == nil {
		fmt.Fprintf(w, "%sno measurement of what each cache saves on this device: run clmeter cache bench\n", indent)
		return
	}
	fmt.Fprintf(w, "%smeasured by clmeter cache bench on %s:\n", indent, s.Measured.Format("2006-01-02"))
	for _, p := range s.Programs {
		fmt.Fprintf(w, "%s  %s\n", indent, p.Summary())
	}
}

// WriteSavings prints, per device measured, what each cache saves there.
func WriteSavings(w io.Writer, all []Savings) error {
	if len(all) == 0 {
		_, err := fmt.Fprintln(w, "what each cache saves: not measured here yet (run clmeter cache bench)")
		return err
	}
	for _, s := range all {
		fmt.Fprintf(w, "\nwhat each cache saves on %s (%s), measured %s:\n", s.Device, s.Platform, s.Measured.Format("2006-01-02"))
		for _, p := range s.Programs {
			fmt.Fprintf(w, "  %s\n", p.Summary())
		}
		WritePolicy(w, "  ", PolicyFor(s.Family, os.Environ()))
	}
	return nil
}

// WritePolicy prints clmeter's binary-cache policy for a driver.
func WritePolicy(w io.Writer, indent string, pol Policy) {
	state := "off"
	if pol.On {
		state = "on"
	}
	fmt.Fprintf(w, "%sbinary cache: clmeter's is %s by default on this driver; it stores %s (%s)\n", indent, state, pol.Stores, pol.Why)
}
