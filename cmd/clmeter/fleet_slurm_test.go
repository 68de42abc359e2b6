package main

import (
	"context"
	"fmt"
	"os"
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

// slurmJob writes a job script that runs this test binary as clmeter with
// args (its private caches, PoCL's default device) and returns its path.
func slurmJob(t *testing.T, c *slurmtest.Cluster, name string, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\nexec env CLMETER_TEST_MAIN=1 CLMETER_CACHE_DIR=%s CLMETER_PROFILE_DIR=%s CLMETER_CACHE_STORE_WAIT=1 %s -- %s\n",
		filepath.Join(c.Dir, "cache"), filepath.Join(c.Dir, "profiles"), exe, args)
	path := filepath.Join(c.Dir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
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
			out, _ := os.ReadFile(filepath.Join(c.Dir, "out", fmt.Sprintf("slurm-%s.out", task)))
			t.Fatalf("job %s task %s: %s\n%s", id, task, s, out)
		}
	}
}

// privatePostgres starts a private PostgreSQL server for the test (stopped
// when it ends) and returns a new database's URL.
func privatePostgres(t *testing.T) string {
	t.Helper()
	if storetest.PostgresBin() == "" && os.Getenv("CI") == "" {
		t.Skip("PostgreSQL is not installed")
	}
	pg, err := storetest.StartPostgres()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	u, err := pg.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
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

// TestFleetSlurmShards runs 'suite quick --small --shard auto --shards 4'
// as a Slurm array into one PostgreSQL store: a shard not yet run is
// missing; once run, every benchmark is measured exactly once across the
// shards; after scontrol requeue of a task the store keeps both attempts
// and marks one latest per shard.
func TestFleetSlurmShards(t *testing.T) {
	pg := privatePostgres(t)
	c := slurmtest.Start(t, 2)
	out := filepath.Join(c.Dir, "out")
	job := slurmJob(t, c, "shard.sh", "suite quick --small --max-time 100ms --min-samples 2 --no-profile --format json "+
		"--shard auto --shards 4 --fleet-run camp --store "+pg+" -o "+out+"/shard-$SLURM_ARRAY_TASK_ID-${SLURM_RESTART_COUNT:-0}.json")
	id, err := c.Sbatch("--array=0,1,3", "-o", filepath.Join(out, "slurm-%a.out"), job)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id)
	if m := store.MissingShards(fleetTasks(t, pg, "camp")); !slices.Equal(m, []int{2}) {
		t.Fatalf("missing shards %v, want [2]", m)
	}
	// The missing shard, rerun alone: its index is its own.
	id2, err := c.Sbatch("--array=2", "-o", filepath.Join(out, "slurm-%a.out"), job)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id2)
	checkEveryBenchmarkOnce(t, out)
	if _, err := c.Run(0, "scontrol", "requeue", id+"_1"); err != nil {
		t.Fatal(err)
	}
	// A requeued task waits for a begin time; let it start now.
	if _, err := c.Run(0, "scontrol", "update", "jobid="+id+"_1", "StartTime=now"); err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, id)
	tasks := fleetTasks(t, pg, "camp")
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
}

// checkEveryBenchmarkOnce reads the four shards' first attempts: every
// benchmark of the suite (as many as each shard's note counts) is in
// exactly one of them.
func checkEveryBenchmarkOnce(t *testing.T, out string) {
	t.Helper()
	seen := map[string]int{}
	total := -1
	note := regexp.MustCompile(`shard \d/4 of suite quick: \d+ of (\d+) item`)
	for i := range 4 {
		f, err := results.Read(filepath.Join(out, fmt.Sprintf("shard-%d-0.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		if f.Fleet == nil || f.Fleet.Shard != i || f.Fleet.Shards != 4 || f.Fleet.Run != "camp" || !strings.HasPrefix(f.Fleet.Node, "n") {
			t.Errorf("shard %d: fleet %+v", i, f.Fleet)
		}
		for _, b := range f.Benchmarks {
			seen[b.Name]++
		}
		log, _ := os.ReadFile(filepath.Join(out, fmt.Sprintf("slurm-%d.out", i)))
		if m := note.FindSubmatch(log); m != nil {
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

// TestFleetSlurmTwoNodes runs one task on each of two logical nodes of one
// host (srun -N2): the store holds both, side by side, told apart by the
// scheduler's node name, under the job's id as the fleet run.
func TestFleetSlurmTwoNodes(t *testing.T) {
	pg := privatePostgres(t)
	c := slurmtest.Start(t, 2)
	job := slurmJob(t, c, "node.sh", "suite quick --small --max-time 100ms --min-samples 2 --no-profile --format json "+
		"--filter launch/dispatch --store "+pg)
	out, err := c.Run(5*time.Minute, "srun", "-N2", "--ntasks-per-node=1", "sh", "-c", `echo "job=$SLURM_JOB_ID"; `+job+` >/dev/null`)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Log())
	}
	m := regexp.MustCompile(`job=(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("srun printed no job id: %s", out)
	}
	nodes := map[string]bool{}
	for _, tk := range fleetTasks(t, pg, m[1]) {
		if tk.Latest && tk.Shards == 0 {
			nodes[tk.Node] = true
		}
	}
	if len(nodes) != 2 || !nodes["n1"] || !nodes["n2"] {
		t.Errorf("fleet run %s: latest tasks on nodes %v, want n1 and n2", m[1], nodes)
	}
}
