package fleet

import (
	"strings"
	"testing"

	"github.com/clmeter/clmeter/sched"
)

// TestSlurmTemplates: the array shape runs --shard auto over 0..N-1 and says
// how to rerun a shard into the same run; the node shape runs alone on each
// node.
func TestSlurmTemplates(t *testing.T) {
	s, err := Template{Shards: 4, Command: []string{"suite", "quick"}, Store: "postgres://db/results"}.Slurm()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=0-3", "clmeter suite quick --store postgres://db/results --shard auto --shards 4 --fleet-run \"$run\"",
		"sbatch --array=K --export=ALL,CLMETER_FLEET_RUN=ARRAYJOBID"} {
		if !strings.Contains(s, want) {
			t.Errorf("array script lacks %q:\n%s", want, s)
		}
	}
	n, err := Template{Nodes: 8, Command: []string{"suite", "quick", "--device", "gpu"}}.Slurm()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --nodes=8", "#SBATCH --ntasks-per-node=1", "#SBATCH --exclusive", "srun --ntasks-per-node=1", "$SLURMD_NODENAME"} {
		if !strings.Contains(n, want) {
			t.Errorf("node script lacks %q:\n%s", want, n)
		}
	}
	for _, bad := range []Template{{Shards: 2, Nodes: 2, Command: []string{"suite"}}, {Command: []string{"suite"}}, {Shards: 2}} {
		if _, err := bad.Slurm(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestKubernetesTemplate: an Indexed Job whose downward-API variables are
// the ones package sched reads.
func TestKubernetesTemplate(t *testing.T) {
	m, err := Template{Shards: 3, Command: []string{"suite", "quick"}, GPUs: 1}.Kubernetes()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"completionMode: Indexed", "completions: 3", `args: ["suite", "quick", "--shard", "auto", "--shards", "3"]`,
		"nvidia.com/gpu: 1", "secretKeyRef"} {
		if !strings.Contains(m, want) {
			t.Errorf("manifest lacks %q:\n%s", want, m)
		}
	}
	for _, v := range []string{sched.K8sJob, sched.K8sPod, sched.K8sNode, sched.K8sNamespace, sched.K8sFailures} {
		if !strings.Contains(m, "name: "+v+"\n") {
			t.Errorf("manifest does not set %s", v)
		}
	}
	if _, err := (Template{Nodes: 2, Command: []string{"suite"}}).Kubernetes(); err == nil {
		t.Error("--nodes on Kubernetes: no error")
	}
}
