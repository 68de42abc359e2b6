package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/fleet"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/store"
)

func init() {
	common := []cli.Flag{
		&cli.IntFlag{Name: "shards", Usage: "split the benchmarks into this many shards, one task each (--shard auto in every task)"},
		&cli.StringFlag{Name: "store", Usage: "the results store every task adds to (a postgres:// URL); default: the job passes CLMETER_STORE on"},
		&cli.StringFlag{Name: "name", Value: "clmeter-fleet", Usage: "the job's name"},
	}
	slurm := append(append([]cli.Flag{}, common...),
		&cli.IntFlag{Name: "nodes", Usage: "run the whole command alone on each of this many nodes (--ntasks-per-node=1 --exclusive): node acceptance, a slow node shows"},
		&cli.StringFlag{Name: "partition", Usage: "the Slurm partition"})
	k8s := append(append([]cli.Flag{}, common...),
		&cli.StringFlag{Name: "image", Usage: "the container image with clmeter and the OpenCL driver"},
		&cli.IntFlag{Name: "gpus", Usage: "GPUs each pod asks for (nvidia.com/gpu)"})
	register(&cli.Command{
		Name:  "fleet",
		Usage: "run clmeter on many machines through the scheduler you have: job templates (docs/FLEET.md)",
		Subcommands: []*cli.Command{{
			Name:      "view",
			Usage:     "a fleet run side by side: shards and nodes present, missing or failed (with the command that reruns one), every node's devices per benchmark, the slow ones flagged; latest attempts only",
			ArgsUsage: "RUN",
			Flags: append([]cli.Flag{
				&cli.StringFlag{Name: "store", Usage: "the results store (a SQLite path or a postgres:// URL; default: the default store)", EnvVars: []string{store.Env}},
				formatFlag("table", "json", "markdown"),
			}, nodeViewFlags...),
			Action: fleetView,
		}, {
			Name:      "status",
			Usage:     "a fleet run's tasks in the store: every attempt of each shard or node, the latest marked, each missing shard with the command that runs it",
			ArgsUsage: "RUN",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "store", Usage: "the results store (a SQLite path or a postgres:// URL; default: the default store)", EnvVars: []string{store.Env}},
				formatFlag("table", "json"),
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return usageErr("'clmeter fleet status' takes one fleet run (its --fleet-run, else the scheduler's job id), got %d arguments", c.NArg())
				}
				f, err := checkFormat(c, "table", "json")
				if err != nil {
					return err
				}
				loc := c.String("store")
				if loc == "" {
					loc = "default"
				}
				return runner.FleetStatus(c.Context, runner.FleetStatusOptions{Store: loc, Run: c.Args().First(), Format: f}, c.App.Writer)
			},
		}, {
			Name:      "slurm",
			Usage:     "print an sbatch script: an array over shards (--shards N) or one task per node (--nodes N)",
			ArgsUsage: "COMMAND...",
			Description: "Prints a batch script that runs 'clmeter COMMAND' in every task, each adding its\n" +
				"   results to one store under one fleet run; '--' ends the template's flags. Example:\n" +
				"     clmeter fleet slurm --shards 4 --store postgres://db/results -- suite quick",
			Flags: slurm,
			Action: func(c *cli.Context) error {
				t := fleetTemplate(c)
				t.Nodes, t.Partition = c.Int("nodes"), c.String("partition")
				return printTemplate(c, t.Slurm)
			},
		}, {
			Name:      "kubernetes",
			Usage:     "print an Indexed Job manifest over shards (--shards N), with the downward-API variables clmeter records",
			ArgsUsage: "COMMAND...",
			Description: "Prints a Job manifest that runs 'clmeter COMMAND --shard auto --shards N' in every\n" +
				"   pod; '--' ends the template's flags. Example:\n" +
				"     clmeter fleet kubernetes --shards 4 --gpus 1 -- suite quick --device gpu",
			Flags: k8s,
			Action: func(c *cli.Context) error {
				t := fleetTemplate(c)
				t.Image, t.GPUs = c.String("image"), c.Int("gpus")
				return printTemplate(c, t.Kubernetes)
			},
		}},
	})
}

// fleetTemplate reads the flags both templates take.
func fleetTemplate(c *cli.Context) fleet.Template {
	return fleet.Template{Shards: c.Int("shards"), Command: c.Args().Slice(), Store: c.String("store"), Name: c.String("name")}
}

// printTemplate prints what render makes.
func printTemplate(c *cli.Context, render func() (string, error)) error {
	s, err := render()
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(c.App.Writer, s)
	return err
}

// fleetView is 'clmeter fleet view RUN'.
func fleetView(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("'clmeter fleet view' takes one fleet run (its --fleet-run, else the scheduler's job id), got %d arguments", c.NArg())
	}
	f, err := checkFormat(c, "table", "json", "markdown")
	if err != nil {
		return err
	}
	nv, err := nodeViewOptions(c)
	if err != nil {
		return err
	}
	loc := c.String("store")
	if loc == "" {
		loc = "default"
	}
	return runner.FleetView(c.Context, runner.FleetViewOptions{Store: loc, Run: c.Args().First(), Format: f, NodeViewOptions: nv}, c.App.Writer)
}
