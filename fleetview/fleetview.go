// Package fleetview shows one fleet run from the store: its shards and
// nodes, present, missing or failed, the command that reruns a missing
// shard, and per benchmark every node's devices side by side, judged by the
// outlier rule of package peers. Only the latest attempt of each task
// counts (store.FleetTasks marks it): a retried task is counted once. It
// renders the view as tables fitted to a width, JSON and markdown; the
// dashboard's fleet page shows the same view.
package fleetview

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/fleet"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
)

// A Slot is one shard of a sharded run, or one device of a node in a run
// whose tasks each ran every benchmark.
type Slot struct {
	// Slot is "shard i/n" or "node N device KEY" (store.FleetTask.Slot).
	Slot string `json:"slot"`
	// Shard of Shards; Shards 0 for a task that ran every benchmark.
	Shard  int `json:"shard"`
	Shards int `json:"shards,omitempty"`
	// State is "ok", "failed" (its latest attempt kept benchmarks without
	// a figure) or "missing" (no upload: the command reruns it).
	State string `json:"state"`
	// Node and Attempt are the latest attempt's; Superseded counts the
	// earlier attempts, kept in the store and not counted here.
	Node       string `json:"node,omitempty"`
	Attempt    int    `json:"attempt"`
	Superseded int    `json:"superseded,omitempty"`
	// Failed counts the latest attempt's benchmarks without a figure.
	Failed int `json:"failed,omitempty"`
	// Command reruns a missing shard into the run; Sbatch does it with the
	// script of 'clmeter fleet slurm' when the run came from Slurm.
	Command string `json:"command,omitempty"`
	Sbatch  string `json:"sbatch,omitempty"`
}

// A Node is one node of the run as its latest attempts show it.
type Node struct {
	// Name is the scheduler's name of the node, else its host name.
	Name string `json:"name"`
	Host string `json:"host"`
	// Devices are the keys of the devices it measured, Shards the shards
	// ("i/n") its latest attempts ran (none when each task ran every
	// benchmark), Failed their benchmarks without a figure.
	Devices []string `json:"devices"`
	Shards  []string `json:"shards"`
	Failed  int      `json:"failed,omitempty"`
}

// A Column is one device of one node in the matrix.
type Column struct {
	// Label heads the column: the node's name and the device's short key
	// ("n1/3f2a9c01": its UUID's first 8 digits, else its PCI address,
	// else its index), so that two identical GPUs in two nodes are told
	// apart.
	Label string `json:"label"`
	Node  string `json:"node"`
	// DeviceKey is the device's key (results.DeviceInfo.SeriesKey), Model
	// its name.
	DeviceKey string `json:"device_key"`
	Model     string `json:"model"`
	// History is the command that shows this device's history across runs
	// and drivers, with its change points.
	History string `json:"history"`
}

// A View is one fleet run.
type View struct {
	Run string `json:"run"`
	// Shards is the run's shard count (0: each task ran every benchmark).
	Shards int    `json:"shards,omitempty"`
	Slots  []Slot `json:"slots"`
	Nodes  []Node `json:"nodes"`
	// Superseded counts the attempts that a later attempt of their slot
	// replaces: kept in the store, not counted in the view.
	Superseded int      `json:"superseded,omitempty"`
	Columns    []Column `json:"columns"`
	// Matrix is the benchmarks side by side, one device column per
	// Column (same order, same labels), judged by the outlier rule.
	Matrix *peers.View `json:"matrix"`
}

// Build reads fleet run run from st and lays it out, judging the figures
// at tolerance tol (peers.CheckTolerance; 0 is peers.DefaultTolerance). A
// run the store holds nothing of is an error of kind fail.Usage.
func Build(ctx context.Context, st *store.Store, run string, tol float64) (*View, error) {
	if tol == 0 {
		tol = peers.DefaultTolerance
	}
	if err := peers.CheckTolerance(tol); err != nil {
		return nil, fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	tasks, err := st.FleetTasks(ctx, run)
	if err != nil {
		return nil, err
	}
	if len(tasks) == 0 {
		return nil, unknownRun(ctx, st, run)
	}
	res, err := st.FleetResults(ctx, tasks)
	if err != nil {
		return nil, err
	}
	v := &View{Run: run}
	v.slots(tasks)
	v.nodes(tasks)
	if err := v.matrix(res, tol); err != nil {
		return nil, err
	}
	return v, nil
}

// unknownRun is the error for a run st holds nothing of, naming the runs
// it holds (the latest few).
func unknownRun(ctx context.Context, st *store.Store, run string) error {
	runs, err := st.FleetRuns(ctx)
	if err != nil {
		return err
	}
	held := "it holds no fleet run"
	if len(runs) > 0 {
		var names []string
		for _, r := range runs[:min(len(runs), 5)] {
			names = append(names, strconv.Quote(r.Run))
		}
		held = fmt.Sprintf("it holds %d: %s", len(runs), strings.Join(names, ", "))
		if len(runs) > 5 {
			held += " ..."
		}
	}
	return fail.Usagef("fleet run %q: the store %s holds no task of it (the run is --fleet-run, else the scheduler's job id); %s", run, st, held)
}

// Err is the matrix's verdict: an error wrapping peers.ErrOutliers naming
// the slow devices, nil when none is flagged.
func (v *View) Err() error { return v.Matrix.Err() }

// slots fills v.Slots from tasks (FleetTasks' order: slot by slot, latest
// first) and the missing shards, each with its rerun command.
func (v *View) slots(tasks []store.FleetTask) {
	uploads := map[string]map[int64]bool{}
	index := map[string]int{}
	for _, t := range tasks {
		v.Shards = max(v.Shards, t.Shards)
		s := t.Slot()
		if uploads[s] == nil {
			uploads[s] = map[int64]bool{}
		}
		uploads[s][t.UploadID] = true
		if !t.Latest {
			continue
		}
		i, ok := index[s]
		if !ok {
			i = len(v.Slots)
			index[s] = i
			v.Slots = append(v.Slots, Slot{Slot: s, Shard: t.Shard, Shards: t.Shards, State: "ok", Node: t.Node, Attempt: t.Attempt})
		}
		if t.Failed > 0 {
			v.Slots[i].Failed, v.Slots[i].State = t.Failed, "failed"
		}
	}
	for i := range v.Slots {
		v.Slots[i].Superseded = len(uploads[v.Slots[i].Slot]) - 1
		v.Superseded += v.Slots[i].Superseded
	}
	for _, k := range store.MissingShards(tasks) {
		v.Slots = append(v.Slots, Rerun(tasks, k))
	}
	slices.SortStableFunc(v.Slots, func(a, b Slot) int {
		if a.Shards > 0 && b.Shards > 0 {
			return cmp.Compare(a.Shard, b.Shard)
		}
		return cmp.Compare(b.Shards, a.Shards)
	})
}

// nodes fills v.Nodes from the latest attempts of tasks, by name.
func (v *View) nodes(tasks []store.FleetTask) {
	index := map[string]int{}
	var uploads []int64
	for _, t := range tasks {
		if !t.Latest {
			continue
		}
		name := nodeName(t)
		i, ok := index[name]
		if !ok {
			i = len(v.Nodes)
			index[name] = i
			v.Nodes = append(v.Nodes, Node{Name: name, Host: t.Host, Devices: []string{}, Shards: []string{}})
		}
		n := &v.Nodes[i]
		if !slices.Contains(n.Devices, t.DeviceKey) {
			n.Devices = append(n.Devices, t.DeviceKey)
		}
		if !slices.Contains(uploads, t.UploadID) {
			uploads = append(uploads, t.UploadID)
			n.Failed += t.Failed
		}
		if s := fmt.Sprintf("%d/%d", t.Shard, t.Shards); t.Shards > 0 && !slices.Contains(n.Shards, s) {
			n.Shards = append(n.Shards, s)
		}
	}
	slices.SortFunc(v.Nodes, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
}

// nodeName is the node a task ran on: the scheduler's name, else the host.
func nodeName(t store.FleetTask) string {
	if t.Node != "" {
		return t.Node
	}
	return t.Host
}

// Rerun is missing shard k of the run of tasks: the command of the run's
// latest sharded task with its shard, run and result file set for k, and
// with Slurm the sbatch line that runs index k of the fleet's script.
func Rerun(tasks []store.FleetTask, k int) Slot {
	t := tasks[0]
	for _, c := range tasks {
		if c.Shards > 0 && c.Latest {
			t = c
			break
		}
	}
	m := Slot{Slot: fmt.Sprintf("shard %d/%d", k, t.Shards), Shard: k, Shards: t.Shards, State: "missing"}
	skip := []string{"--shard", "--shards", "--fleet-run", "-o", "--output"}
	var args []string
	for i := 0; i < len(t.Command); i++ {
		a := t.Command[i]
		name, _, eq := strings.Cut(a, "=")
		switch {
		case slices.Contains(skip, a) && i+1 < len(t.Command):
			i++
		case eq && slices.Contains(skip, name):
		default:
			args = append(args, a)
		}
	}
	args = append(args, "--shard", fmt.Sprintf("%d/%d", k, t.Shards), "--fleet-run", t.Run, "-o", fmt.Sprintf("clmeter-%s-%d-rerun.json", t.Run, k))
	m.Command = fleet.ShellWords(args)
	if t.Scheduler == "slurm" {
		m.Sbatch = fmt.Sprintf("sbatch --array=%d --export=ALL,CLMETER_FLEET_RUN=%s SCRIPT", k, fleet.ShellWords([]string{t.Run}))
	}
	return m
}

// matrix lays the latest attempts' benchmarks out side by side, one column
// per node and device, and judges them (peers.Build).
func (v *View) matrix(res []store.FleetResult, tol float64) error {
	slices.SortStableFunc(res, func(a, b store.FleetResult) int {
		return cmp.Or(strings.Compare(nodeName(a.Task), nodeName(b.Task)), strings.Compare(a.Task.DeviceKey, b.Task.DeviceKey))
	})
	bs := make([]peers.Record, len(res))
	cols := map[string]Column{}
	var order []string
	used := map[string]bool{}
	colOf := make([]string, len(res))
	for i, r := range res {
		bs[i] = peers.Record{Name: r.Name, Params: r.Params, Device: r.Device, Measurement: r.Measurement, Error: r.Error}
		node := nodeName(r.Task)
		// Node and device: two logical nodes of one host (one device key)
		// are two columns.
		colOf[i] = node + "\x00" + r.Task.DeviceKey
		if _, ok := cols[colOf[i]]; !ok {
			key := r.Device.SeriesKey()
			label := node + "/" + shortKey(r.Device)
			for n := 2; used[label]; n++ { // two UUIDs of the same first 8 digits
				label = fmt.Sprintf("%s/%s#%d", node, shortKey(r.Device), n)
			}
			used[label] = true
			cols[colOf[i]] = Column{Label: label, Node: node, DeviceKey: key,
				Model: results.DeviceLabel(r.Device), History: historyCommand(key)}
			order = append(order, colOf[i])
		}
	}
	m, err := peers.BuildRecords(bs, tol, func(i int) (string, string) { return colOf[i], cols[colOf[i]].Label })
	if err != nil {
		return fail.With(fail.Usage, fmt.Errorf("--outlier-tolerance: %w", err))
	}
	v.Columns = []Column{}
	for _, d := range m.Devices {
		for _, k := range order {
			if cols[k].Label == d.Label {
				v.Columns = append(v.Columns, cols[k])
				break
			}
		}
	}
	v.Matrix = m
	return nil
}

// shortKey names a device among others of its node: its UUID's first 8
// digits, else its PCI address, else its index.
func shortKey(d results.DeviceInfo) string {
	switch {
	case d.UUID != "":
		u := strings.ToLower(strings.ReplaceAll(d.UUID, "-", ""))
		return u[:min(8, len(u))]
	case d.PCI != "":
		return d.PCI
	case d.Index != "":
		return d.Index
	}
	return "?"
}

// historyCommand shows one device's history across runs and drivers, with
// its change points.
func historyCommand(key string) string {
	return fleet.ShellWords([]string{"clmeter", "history", "--device-key", key, "--regressions"})
}
