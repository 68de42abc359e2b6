package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// storeFlag names the results database for every command that uses it.
var storeFlag = &cli.StringFlag{
	Name:    "store",
	Usage:   "results database: a SQLite file path, or a postgres://user@host/db URL (the password from PGPASSWORD or ~/.pgpass; one in the URL is never recorded); 'default' is the SQLite file in the user data folder",
	EnvVars: []string{store.Env},
}

// labelFlag adds key=value labels to what is stored.
var labelFlag = &cli.StringSliceFlag{Name: "label", Usage: "a key=value label stored with the results (repeat for more); the current folder's git commit and branch are added"}

// storeFlags are the flags run, suite and compare take to put their results in
// the store as well.
var storeFlags = []cli.Flag{
	&cli.StringFlag{Name: "store", Usage: "also put the results into this results database (a SQLite path, a postgres:// URL, or 'default')", EnvVars: []string{store.Env}},
	labelFlag,
}

// storeTarget reads --store and --label of run, suite and compare: where to
// store ("" for nowhere) and the labels. --label without a store is an error.
func storeTarget(c *cli.Context) (string, map[string]string, error) {
	labels, err := store.ParseLabels(c.StringSlice("label"))
	if err != nil {
		return "", nil, usageErr("%v", err)
	}
	loc := c.String("store")
	if loc == "" && len(labels) > 0 {
		return "", nil, usageErr("--label needs --store (or %s): labels are kept in the results database", store.Env)
	}
	if loc != "" {
		// The command line and the names it gives are stored: check them
		// before the run measures, not when the store refuses them after.
		args, _ := c.App.Metadata["args"].([]string)
		for _, a := range args {
			if err := store.CheckText("the argument", a); err != nil {
				return "", nil, usageErr("%v", err)
			}
		}
	}
	return loc, labels, nil
}

func init() {
	register(&cli.Command{
		Name:  "store",
		Usage: "the results database: add result files to it",
		Description: "The store keeps every result (each sample, the device, host and run, and labels) for\n" +
			"   'clmeter history' and 'clmeter serve'. It is a SQLite file in the user data folder\n" +
			"   unless --store or " + store.Env + " names another file or a postgres:// URL.",
		Subcommands: []*cli.Command{{
			Name:      "add",
			Usage:     "add result files (adding the same content twice does nothing)",
			ArgsUsage: "FILE...",
			Description: "Reads every file first; if any cannot be read or stored, none is added. Each file is one\n" +
				"   upload, written in one transaction. Labels (--label) and the current folder's git\n" +
				"   commit, branch and dirty state are stored with it.",
			Flags: []cli.Flag{storeFlag, labelFlag},
			Action: func(c *cli.Context) error {
				if c.NArg() == 0 {
					return usageErr("'clmeter store add' needs result files (clmeter store add results.json)")
				}
				labels, err := store.ParseLabels(c.StringSlice("label"))
				if err != nil {
					return usageErr("%v", err)
				}
				if err := store.CheckPaths(c.Args().Slice()); err != nil {
					return err
				}
				st, err := store.Open(c.Context, c.String("store"), store.Options{Create: true})
				if err != nil {
					return err
				}
				defer st.Close()
				added, err := st.AddPaths(c.Context, c.Args().Slice(), labels)
				for _, a := range added {
					what := fmt.Sprintf("added %s as upload %d", units.Count(a.Benchmarks, "benchmark"), a.UploadID)
					if a.Duplicate {
						what = fmt.Sprintf("already stored as upload %d: nothing added", a.UploadID)
					}
					table.WriteWrapped(c.App.Writer, fmt.Sprintf("%s: %s (%s)", a.Source, what, store.LabelText(a.Labels)), table.Width(c.App.Writer), "", "    ")
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "store: %s\n", st)
				return nil
			},
		}},
	})
}
