package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fleet"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/store"
)

// FleetOptions place a suite or a run in a fleet run (docs/FLEET.md).
type FleetOptions struct {
	// Shard, when its Count is set, measures only that shard of the
	// benchmarks (fleet.Split of their sorted names).
	Shard fleet.Shard
	// Place, when set, is the result file's fleet (run, shard, attempt,
	// node, the scheduler's labels).
	Place *results.FleetInfo
	// StoreRetry is how long an upload is tried again, with backoff, while
	// the store's server does not answer (0: once).
	StoreRetry Backoff
	// derived names the suite's derived rows that a shard leaves out
	// (suiteShard).
	derived map[string]bool
}

// suiteShard returns the filter of o's shard of the suite, and the names
// of the suite's derived rows (bests, summaries: of one shard, not of the
// device, so a shard leaves them out): the names of the steps the suite
// lists on the first device (those filter matches, when set), split by o's
// shard. Listing measures nothing. An empty shard is an error.
func suiteShard(m *runtime.Manager, o SuiteOptions, filter *regexp.Regexp, stderr io.Writer) (*regexp.Regexp, map[string]bool, error) {
	if o.Fleet.Shard.Count == 0 {
		return filter, nil, nil
	}
	devs, err := m.Select(o.Device)
	if err != nil {
		return nil, nil, err
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	exe, _ := os.Executable()
	listing := clkernels.Options{Settings: o.Settings, Small: o.Small, MaxSize: o.MaxSize, MaxMemory: o.MaxMemory, Filter: filter, Executable: exe}
	var names []string
	derived := map[string]bool{}
	for _, st := range suite.List(devs[0], listing) {
		switch {
		case st.How == harness.HowDerived:
			derived[st.Name] = true
		case st.How != harness.HowSizing && !slices.Contains(names, st.Name):
			names = append(names, st.Name)
		}
	}
	if len(fleet.Split(names, o.Fleet.Shard)) == 0 {
		return nil, nil, fleet.EmptyError("suite "+o.Suite, len(names), o.Fleet.Shard)
	}
	shardNote(stderr, "suite "+o.Suite, names, o.Fleet.Shard)
	return fleet.Pattern(names, o.Fleet.Shard), derived, nil
}

// shardNote says on stderr which shard of how many names runs.
func shardNote(stderr io.Writer, what string, names []string, s fleet.Shard) {
	if s.Count == 0 {
		return
	}
	mine := fleet.Split(names, s)
	shown := mine
	more := ""
	if len(shown) > 8 {
		shown, more = shown[:8], fmt.Sprintf(" and %d more", len(mine)-8)
	}
	fmt.Fprintf(stderr, "clmeter: shard %s of %s: %d of %d item(s): %s%s\n", s, what, len(mine), len(fleet.Split(names, fleet.Shard{})), strings.Join(shown, ", "), more)
}

// itemName names a run's configuration for sharding: the kernel and its
// parameters, as the run table shows them.
func itemName(it runItem) string {
	parts := []string{it.name}
	for _, p := range it.params {
		parts = append(parts, p.Name+"="+p.Value)
	}
	return strings.Join(parts, " ")
}

// shardItems keeps the items of shard s (every device's items of the
// shard's configurations) and says which on stderr.
func shardItems(items []runItem, s fleet.Shard, what string, stderr io.Writer) ([]runItem, error) {
	if s.Count == 0 {
		return items, nil
	}
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = itemName(it)
	}
	if len(fleet.Split(names, s)) == 0 {
		return nil, fleet.EmptyError(what, len(fleet.Split(names, fleet.Shard{})), s)
	}
	shardNote(stderr, what, names, s)
	in := fleet.Of(names, s)
	var out []runItem
	for i, it := range items {
		if in(names[i]) {
			out = append(out, it)
		}
	}
	return out, nil
}

// checkFleetStore is checkStore, but a task of a fleet run whose store does
// not answer yet measures all the same (a fleet's tasks outlive a server's
// restart): its upload is tried again at the end (FleetOptions.StoreRetry).
func checkFleetStore(loc string, f FleetOptions, stderr io.Writer) error {
	err := checkStore(loc)
	if err != nil && f.Place != nil && f.StoreRetry.Total > 0 && errors.Is(err, store.ErrUnreachable) {
		fmt.Fprintf(stderr, "clmeter: %v; measuring all the same: the upload is tried again for up to %v at the end\n",
			errors.Unwrap(err), f.StoreRetry.Total)
		return nil
	}
	return err
}
