package fleet

import (
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/fail"
)

// A Template says what 'clmeter fleet slurm' and 'clmeter fleet kubernetes'
// print: a job that runs one clmeter command on many tasks of a scheduler.
type Template struct {
	// Shards, when set, splits the benchmarks into this many shards, one
	// array task (Slurm) or completion index (Kubernetes) each.
	Shards int
	// Nodes, when set (Slurm only), runs the whole command once on each of
	// this many nodes, alone on the node (node acceptance: every node runs
	// the same work, so a slow one shows).
	Nodes int
	// Command is what every task runs, after "clmeter" ("suite quick
	// --device gpu"); Store is the results store's location ("" leaves it
	// to CLMETER_STORE, which the job must then pass on).
	Command []string
	Store   string
	// Name is the job's name; Partition (Slurm), Image and GPUs
	// (Kubernetes: nvidia.com/gpu per pod) are the site's.
	Name, Partition, Image string
	GPUs                   int
}

// check refuses a template that is not one shape or has no command.
func (t Template) check(slurm bool) error {
	switch {
	case len(t.Command) == 0:
		return fail.Usagef("no command to run: give it after the flags, e.g. clmeter fleet slurm --shards 4 -- suite quick")
	case t.Shards > 0 && t.Nodes > 0:
		return fail.Usagef("--shards %d and --nodes %d: give one shape: shards (the work split for throughput) or nodes (the same work on every node)", t.Shards, t.Nodes)
	case t.Shards <= 0 && t.Nodes <= 0 && slurm:
		return fail.Usagef("give --shards N (an array over N shards) or --nodes N (one task on each of N nodes)")
	case t.Shards <= 0 && !slurm:
		return fail.Usagef("give --shards N: an Indexed Job of N completions, one shard each")
	case t.Nodes > 0 && !slurm:
		return fail.Usagef("--nodes: the Kubernetes template is an Indexed Job over shards; give --shards N")
	}
	return nil
}

// ShellWords joins words for a shell, quoting those that need it.
func ShellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:@=,+%", r)) {
				out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
				break
			}
		}
	}
	return strings.Join(out, " ")
}

// Slurm returns an sbatch script for t.
func (t Template) Slurm() (string, error) {
	if err := t.check(true); err != nil {
		return "", err
	}
	name := t.Name
	if name == "" {
		name = "clmeter-fleet"
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", name)
	if t.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", t.Partition)
	}
	cmd := "clmeter " + ShellWords(t.Command)
	if t.Store != "" {
		cmd += " --store " + ShellWords([]string{t.Store})
	}
	if t.Shards > 0 {
		fmt.Fprintf(&b, "#SBATCH --array=0-%d\n#SBATCH --ntasks=1\n#SBATCH --output=%s-%%A_%%a.out\n", t.Shards-1, name)
		fmt.Fprintf(&b, "# Shards: each array task measures its shard of the benchmarks; every benchmark\n")
		fmt.Fprintf(&b, "# is in exactly one of the %d. The fleet run is the array job's id; rerun a\n", t.Shards)
		fmt.Fprintf(&b, "# missing shard K into it with:\n#   sbatch --array=K --export=ALL,CLMETER_FLEET_RUN=ARRAYJOBID THIS_SCRIPT\n")
		fmt.Fprintf(&b, "# Results are also kept in clmeter-RUN-TASK-ATTEMPT.json (store add them if an upload failed).\n")
		b.WriteString("set -eu\nrun=${CLMETER_FLEET_RUN:-$SLURM_ARRAY_JOB_ID}\n")
		fmt.Fprintf(&b, "%s --shard auto --shards %d --fleet-run \"$run\" \\\n  -o \"clmeter-$run-$SLURM_ARRAY_TASK_ID-${SLURM_RESTART_COUNT:-0}.json\"\n", cmd, t.Shards)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "#SBATCH --nodes=%d\n#SBATCH --ntasks-per-node=1\n#SBATCH --exclusive\n#SBATCH --output=%s-%%j.out\n", t.Nodes, name)
	b.WriteString("# Node acceptance: the same command alone on each node, all in one fleet run (the\n")
	b.WriteString("# job's id), each node's results told apart by its name (SLURMD_NODENAME).\n")
	b.WriteString("# Results are also kept in clmeter-RUN-NODE-ATTEMPT.json (store add them if an upload failed).\n")
	b.WriteString("set -eu\nexport CLMETER_FLEET_RUN=${CLMETER_FLEET_RUN:-$SLURM_JOB_ID}\n")
	fmt.Fprintf(&b, "srun --ntasks-per-node=1 bash -c '%s --fleet-run \"$CLMETER_FLEET_RUN\" \\\n  -o \"clmeter-$CLMETER_FLEET_RUN-$SLURMD_NODENAME-${SLURM_RESTART_COUNT:-0}.json\"'\n",
		strings.ReplaceAll(cmd, "'", `'\''`))
	return b.String(), nil
}

// Kubernetes returns an Indexed Job manifest for t: one completion per
// shard, each pod with its completion index (JOB_COMPLETION_INDEX) and the
// downward-API variables package sched reads (job, pod, node, namespace,
// the index's failures), a failed index retried on its own.
func (t Template) Kubernetes() (string, error) {
	if err := t.check(false); err != nil {
		return "", err
	}
	name := t.Name
	if name == "" {
		name = "clmeter-fleet"
	}
	image := t.Image
	if image == "" {
		image = "IMAGE-WITH-CLMETER-AND-YOUR-OPENCL-DRIVER"
	}
	args := append(append([]string{}, t.Command...), "--shard", "auto", "--shards", fmt.Sprint(t.Shards))
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# An Indexed Job: %d completions, one shard each; every benchmark is in exactly one.\n", t.Shards)
	b.WriteString("# The fleet run is the Job's name: give each campaign its own (--name).\n")
	fmt.Fprintf(&b, "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: %s\nspec:\n", name)
	fmt.Fprintf(&b, "  completionMode: Indexed\n  completions: %d\n  parallelism: %d\n  backoffLimitPerIndex: 2\n", t.Shards, t.Shards)
	fmt.Fprintf(&b, "  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: clmeter\n        image: %s\n", image)
	fmt.Fprintf(&b, "        command: [\"clmeter\"]\n        args: [%s]\n        env:\n", strings.Join(quoted, ", "))
	if t.Store != "" {
		fmt.Fprintf(&b, "        - name: CLMETER_STORE\n          value: %q\n", t.Store)
	} else {
		b.WriteString("        - name: CLMETER_STORE  # the store's URL, from a Secret\n          valueFrom:\n            secretKeyRef: {name: clmeter-store, key: url}\n")
	}
	for _, v := range [][2]string{{"CLMETER_K8S_JOB", "metadata.labels['batch.kubernetes.io/job-name']"}, {"CLMETER_K8S_POD", "metadata.name"},
		{"CLMETER_K8S_NODE", "spec.nodeName"}, {"CLMETER_K8S_NAMESPACE", "metadata.namespace"},
		{"CLMETER_K8S_INDEX_FAILURES", "metadata.annotations['batch.kubernetes.io/job-index-failure-count']"}} {
		fmt.Fprintf(&b, "        - name: %s\n          valueFrom:\n            fieldRef: {fieldPath: \"%s\"}\n", v[0], v[1])
	}
	if t.GPUs > 0 {
		fmt.Fprintf(&b, "        resources:\n          limits: {nvidia.com/gpu: %d}\n", t.GPUs)
	}
	return b.String(), nil
}
