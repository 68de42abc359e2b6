package main

import (
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/fleet"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/store"
)

// fleetFlags are the flags suite, run and tune take to be one task of a
// fleet run (docs/FLEET.md).
var fleetFlags = []cli.Flag{
	&cli.StringFlag{Name: "shard", Usage: "measure only shard i of n of the benchmarks (i/n, counted from 0: every benchmark is in exactly one shard), or auto with --shards N: i from the scheduler (Slurm's SLURM_ARRAY_TASK_ID of an array from 0, sbatch --array=0-(N-1); Kubernetes' JOB_COMPLETION_INDEX)"},
	&cli.IntFlag{Name: "shards", Usage: "the number of shards of --shard auto (never taken from the scheduler)"},
	&cli.StringFlag{Name: "fleet-run", EnvVars: []string{"CLMETER_FLEET_RUN"}, Usage: "the fleet run (campaign) these results belong to, in the result file and the store (default: the scheduler's job id, Slurm's array job id)"},
	&cli.DurationFlag{Name: "store-retry", Value: 2 * time.Minute, Usage: "while the store's server does not answer, try the upload again with backoff for this long; then the results stay in a JSON file to add later with 'clmeter store add'"},
}

// fleetFrom reads the fleet flags and the scheduler's environment.
func fleetFrom(c *cli.Context) (runner.FleetOptions, error) {
	var o runner.FleetOptions
	sc, err := env.scheduler()
	if err != nil {
		return o, usageErr("%v", err)
	}
	if o.Shard, err = fleet.ParseShard(c.String("shard"), c.Int("shards"), sc); err != nil {
		return o, err
	}
	run := c.String("fleet-run")
	if c.IsSet("fleet-run") {
		if _, err := store.ParseLabels([]string{"fleet.run=" + run}); err != nil {
			return o, usageErr("--fleet-run %q: want a name of plain text, e.g. --fleet-run rollout-2026-11", run)
		}
	}
	if c.Duration("store-retry") < 0 {
		return o, usageErr("--store-retry must not be negative, got %s", c.Duration("store-retry"))
	}
	o.StoreRetry = runner.Backoff{Total: c.Duration("store-retry")}
	host, _ := os.Hostname()
	o.Place = fleet.Place(run, o.Shard, sc, host)
	if o.Place != nil && o.Place.Run == "" && c.String("store") != "" {
		fmt.Fprintf(c.App.ErrWriter, "clmeter: no --fleet-run and no scheduler job id: the store keeps these results outside any fleet run\n")
	}
	return o, nil
}
