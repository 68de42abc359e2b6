package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fleet"
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
}

// never matches no name: a suite run with it only names its benchmarks.
var never = regexp.MustCompile(`[^\s\S]`)

// suiteShard returns the filter of o's shard of the suite: the names the
// suite gives on dev (those filter matches, when set), split by o's shard.
// The names come from a pass that measures nothing (every benchmark left
// out by the filter and named to Skip). An empty shard is an error.
func suiteShard(ctx context.Context, m *runtime.Manager, o SuiteOptions, filter *regexp.Regexp, stderr io.Writer) (*regexp.Regexp, error) {
	if o.Fleet.Shard.Count == 0 {
		return filter, nil
	}
	devs, err := m.Select(o.Device)
	if err != nil {
		return nil, err
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	var names []string
	seen := map[string]bool{}
	listing := clkernels.Options{Settings: o.Settings, Small: o.Small, MaxSize: o.MaxSize, MaxMemory: o.MaxMemory, Filter: never,
		Skip: func(name string) {
			if !seen[name] && (filter == nil || filter.MatchString(name)) {
				seen[name] = true
				names = append(names, name)
			}
		},
		Emit: func(results.Benchmark) error { return nil },
	}
	if err := suite.Run(ctx, devs[0], listing); err != nil {
		return nil, fmt.Errorf("listing suite %s for --shard: %w", o.Suite, err)
	}
	if len(fleet.Split(names, o.Fleet.Shard)) == 0 {
		return nil, fleet.EmptyError("suite "+o.Suite, len(names), o.Fleet.Shard)
	}
	shardNote(stderr, "suite "+o.Suite, names, o.Fleet.Shard)
	return fleet.Pattern(names, o.Fleet.Shard), nil
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
