package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/slurmtest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// fleetScript puts a clmeter on the cluster's PATH (this test binary
// running main, with private caches) and writes the script that 'clmeter
// fleet slurm ARGS' prints; it returns the script's path and the sbatch
// flag that passes the PATH on.
func fleetScript(t *testing.T, c *slurmtest.Cluster, args ...string) (string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(c.Dir, "bin")
	os.MkdirAll(bin, 0o755)
	wrapper := fmt.Sprintf("#!/bin/sh\nexec env CLMETER_TEST_MAIN=1 CLMETER_CACHE_DIR=%s CLMETER_PROFILE_DIR=%s CLMETER_CACHE_STORE_WAIT=1 %s -- \"$@\"\n",
		filepath.Join(c.Dir, "cache"), filepath.Join(c.Dir, "profiles"), exe)
	if err := os.WriteFile(filepath.Join(bin, "clmeter"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"--", "fleet", "slurm"}, args...)...)
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
	script, err := cmd.Output()
	if err != nil {
		t.Fatalf("clmeter fleet slurm %s: %v", strings.Join(args, " "), err)
	}
	path := filepath.Join(c.Dir, "fleet.sbatch")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	return path, "--export=ALL,PATH=" + bin + ":" + os.Getenv("PATH") + ":/usr/sbin"
}

// waitDone waits for job id and fails the test unless every task completed.
func waitDone(t *testing.T, c *slurmtest.Cluster, id string) {
	t.Helper()
	states, err := c.WaitJob(id, 5*time.Minute)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Log())
	}
	for task, s := range states {
		if s != "COMPLETED" {
			logs, _ := filepath.Glob(filepath.Join(c.Dir, "clmeter-fleet-*"))
			var text []byte
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				text = append(text, b...)
			}
			t.Fatalf("job %s task %s: %s\n%s", id, task, s, text)
		}
	}
}

// privatePostgres starts a private PostgreSQL server for the test (stopped
// when it ends) and returns a new database's URL.
func privatePostgres(t *testing.T) string {
	t.Helper()
	_, u := storetest.PrivatePostgres(t)
	return u
}

// fleetTasks reads fleet run run's tasks from the store.
func fleetTasks(t *testing.T, loc, run string) []store.FleetTask {
	t.Helper()
	st, err := store.Open(context.Background(), loc, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tasks, err := st.FleetTasks(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// TestFleetSlurmShards submits the script of 'clmeter fleet slurm --shards
// 4 -- suite quick --small' to a private Slurm cluster with a private
// PostgreSQL store: a shard not yet run is missing; rerun alone as the
// script says, it fills the run; every benchmark is measured exactly once
// across the shards; after scontrol requeue of a task the store keeps both
// attempts and marks one latest per shard.
func TestFleetSlurmShards(t *testing.T) {
	pg := privatePostgres(t)
	c := slurmtest.Start(t, 2)
	script, export := fleetScript(t, c, "--shards", "4", "--store", pg, "--",
		"suite", "quick", "--small", "--max-time", "100ms", "--min-samples", "2", "--no-profile", "--format", "json")
	id, err := c.Sbatch("--array=0,1,3", export, script)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id)
	if m := store.MissingShards(fleetTasks(t, pg, id)); !slices.Equal(m, []int{2}) {
		t.Fatalf("missing shards %v, want [2]", m)
	}
	// 'fleet status' reports it with the commands that run it.
	code, status, errs := clm(t, "fleet", "status", "--store", pg, id)
	if code != 0 || !strings.Contains(status, "missing shard 2/4: run it with") || !strings.Contains(status, "--shard 2/4 --fleet-run "+id) ||
		!strings.Contains(status, "sbatch --array=2 --export=ALL,CLMETER_FLEET_RUN="+id) {
		t.Errorf("fleet status: exit %d:\n%s%s", code, status, errs)
	}
	// The missing shard, rerun alone into the same run as the script says.
	id2, err := c.Sbatch("--array=2", export+",CLMETER_FLEET_RUN="+id, script)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id2)
	checkEveryBenchmarkOnce(t, c.Dir, id)
	if _, err := c.Run(0, "scontrol", "requeue", id+"_1"); err != nil {
		t.Fatal(err)
	}
	// A requeued task waits for a begin time; let it start now.
	if _, err := c.Run(0, "scontrol", "update", "jobid="+id+"_1", "StartTime=now"); err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id)
	tasks := fleetTasks(t, pg, id)
	uploads, latest := map[int64]bool{}, map[int][]store.FleetTask{}
	for _, tk := range tasks {
		uploads[tk.UploadID] = true
		if tk.Latest {
			latest[tk.Shard] = append(latest[tk.Shard], tk)
		}
	}
	if len(uploads) != 5 || len(latest) != 4 {
		t.Fatalf("%d uploads, latest of %d shards; want 5 uploads (shard 1 twice), 4 shards: %+v", len(uploads), len(latest), tasks)
	}
	for shard, ts := range latest {
		if want := map[bool]int{true: 1, false: 0}[shard == 1]; len(ts) != 1 || ts[0].Attempt != want || ts[0].Scheduler != "slurm" {
			t.Errorf("shard %d: latest %+v, want one upload of attempt %d", shard, ts, want)
		}
	}
	checkFleetViewOnce(t, pg, id)
}

// checkFleetViewOnce checks 'fleet view' of a sharded run after a requeue:
// four shards, each once, shard 1 at attempt 1 with one superseded, and
// every benchmark once (no record repeated on its device).
func checkFleetViewOnce(t *testing.T, pg, id string) {
	t.Helper()
	code, out, errs := clm(t, "fleet", "view", "--store", pg, "--format", "json", id)
	var v struct {
		Slots []struct {
			Shard, Attempt, Superseded int
			State                      string
		}
		Matrix struct{ Notes []string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("fleet view: exit %d, %s\n%s", code, errs, out)
	}
	if len(v.Slots) != 4 || v.Slots[1].Attempt != 1 || v.Slots[1].Superseded != 1 || v.Slots[0].State != "ok" {
		t.Errorf("fleet view: slots %+v, want 4, shard 1 at attempt 1 over one superseded", v.Slots)
	}
	for _, n := range v.Matrix.Notes {
		if strings.Contains(n, "repeat") {
			t.Errorf("fleet view counts a requeued task twice: %s", n)
		}
	}
}

// checkEveryBenchmarkOnce reads the four shards' first attempts of fleet run
// run: every benchmark of the suite (as many as each shard's note counts)
// is in exactly one of them.
func checkEveryBenchmarkOnce(t *testing.T, dir, run string) {
	t.Helper()
	seen := map[string]int{}
	total := -1
	for i := range 4 {
		f, err := results.Read(filepath.Join(dir, fmt.Sprintf("clmeter-%s-%d-0.json", run, i)))
		if err != nil {
			t.Fatal(err)
		}
		if f.Fleet == nil || f.Fleet.Shard != i || f.Fleet.Shards != 4 || f.Fleet.Run != run || !strings.HasPrefix(f.Fleet.Node, "n") {
			t.Errorf("shard %d: fleet %+v", i, f.Fleet)
		}
		for _, b := range f.Benchmarks {
			seen[b.Name]++
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "clmeter-fleet-*.out"))
	note := regexp.MustCompile(`shard \d/4 of suite quick: \d+ of (\d+) item`)
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		if m := note.FindSubmatch(b); m != nil {
			total, _ = strconv.Atoi(string(m[1]))
		}
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s measured in %d shards", name, n)
		}
	}
	if total < 10 || len(seen) != total {
		t.Errorf("%d benchmarks across the shards, the suite has %d", len(seen), total)
	}
}

// TestFleetSlurmTwoNodes submits the script of 'clmeter fleet slurm --nodes
// 2' (one task alone on each node) to two logical nodes of one host: the
// store holds both, side by side, told apart by the scheduler's node name,
// under the job's id as the fleet run.
func TestFleetSlurmTwoNodes(t *testing.T) {
	pg := privatePostgres(t)
	c := slurmtest.Start(t, 2)
	script, export := fleetScript(t, c, "--nodes", "2", "--store", pg, "--",
		"suite", "quick", "--small", "--max-time", "100ms", "--min-samples", "2", "--no-profile", "--format", "json", "--filter", "launch/dispatch")
	id, err := c.Sbatch(export, script)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id)
	nodes := map[string]bool{}
	for _, tk := range fleetTasks(t, pg, id) {
		if tk.Latest && tk.Shards == 0 {
			nodes[tk.Node] = true
		}
	}
	if len(nodes) != 2 || !nodes["n1"] || !nodes["n2"] {
		t.Errorf("fleet run %s: latest tasks on nodes %v, want n1 and n2", id, nodes)
	}
	for _, n := range []string{"n1", "n2"} {
		if _, err := results.Read(filepath.Join(c.Dir, fmt.Sprintf("clmeter-%s-%s-0.json", id, n))); err != nil {
			t.Errorf("node %s: %v", n, err)
		}
	}
	// 'fleet view': the two nodes' devices side by side, two columns
	// labelled by node, though both are one PoCL device of one host.
	code, view, errs := clm(t, "fleet", "view", "--store", pg, "--format", "json", id)
	var v struct {
		Columns []struct{ Label, Node string }
		Matrix  struct {
			Rows []struct{ Name string }
		}
	}
	if code != 0 || json.Unmarshal([]byte(view), &v) != nil {
		t.Fatalf("fleet view: exit %d, %s\n%s", code, errs, view)
	}
	if len(v.Columns) != 2 || v.Columns[0].Node != "n1" || v.Columns[1].Node != "n2" || !strings.HasPrefix(v.Columns[0].Label, "n1/") ||
		len(v.Matrix.Rows) == 0 || v.Matrix.Rows[0].Name != "launch/dispatch" {
		t.Errorf("fleet view: columns %+v, rows %+v, want n1 and n2 side by side on launch/dispatch", v.Columns, v.Matrix.Rows)
	}
	code, table, _ := clm(t, "fleet", "view", "--store", pg, id)
	if code != 0 || !regexp.MustCompile(`n1/\S+\s+n2/\S+`).MatchString(table) {
		t.Errorf("fleet view table: exit %d\n%s", code, table)
	}
}
