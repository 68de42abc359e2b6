package slurmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestArrayJob submits a 4-task array job to a cluster of two logical nodes
// and sees every task finish with its own index and Slurm's variables.
func TestArrayJob(t *testing.T) {
	c := Start(t, 2)
	out := filepath.Join(c.Dir, "out")
	id, err := c.Sbatch("--array=0-3", "-o", filepath.Join(out, "%a.out"),
		"--wrap", `echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_COUNT $SLURMD_NODENAME"`)
	if err != nil {
		t.Fatal(err)
	}
	states, err := c.WaitJob(id, 2*time.Minute)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Log())
	}
	if len(states) != 4 {
		t.Fatalf("states %v: want 4 tasks", states)
	}
	nodes := map[string]bool{}
	for i := range 4 {
		if s := states[fmt.Sprint(i)]; s != "COMPLETED" {
			t.Errorf("task %d: %s, want COMPLETED", i, s)
		}
		b, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("%d.out", i)))
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b))
		if len(f) != 5 || f[0] != id || f[1] != fmt.Sprint(i) || f[2] != "0" || f[3] != "4" {
			t.Errorf("task %d printed %q, want %q", i, b, fmt.Sprintf("%s %d 0 4 NODE", id, i))
			continue
		}
		nodes[f[4]] = true
	}
	for n := range nodes {
		if n != "n1" && n != "n2" {
			t.Errorf("a task ran on node %q, not one of the cluster's", n)
		}
	}
}

// TestTwoLogicalNodes runs one step on both logical nodes (srun -N2): each
// sees its own node name on the same host.
func TestTwoLogicalNodes(t *testing.T) {
	c := Start(t, 2)
	out, err := c.Run(time.Minute, "srun", "-N2", "--ntasks-per-node=1", "sh", "-c", `echo "$SLURMD_NODENAME $(hostname)"`)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Log())
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	sort.Strings(lines)
	host, _ := os.Hostname()
	want := []string{"n1 " + host, "n2 " + host}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("srun -N2 printed %q, want %q", lines, want)
	}
}

// TestStopLeavesNoDaemon checks that Stop ends every daemon it started.
func TestStopLeavesNoDaemon(t *testing.T) {
	if !Installed() {
		t.Skip("Slurm is not installed")
	}
	c, err := StartCluster(1)
	if err != nil {
		t.Fatal(err)
	}
	procs := append([]*proc(nil), c.procs...)
	c.Stop()
	for _, p := range procs {
		select {
		case <-p.done:
		default:
			t.Errorf("%s (pid %d) still runs after Stop", p.name, p.cmd.Process.Pid)
		}
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after Stop", c.Dir)
	}
}
