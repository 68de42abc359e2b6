// Package sched reads a batch scheduler's context of one task from its
// environment: Slurm's job, array job and task, node and restart count, or a
// Kubernetes Indexed Job's job, completion index, pod and node (from the
// downward-API variables clmeter's manifest sets). It reads nothing itself:
// the command hands it the variables (cmd/clmeter is the one reader of the
// environment), so that a test gives it any environment it likes.
package sched

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/units"
)

// The variables Slurm sets in a job step.
const (
	SlurmJobID          = "SLURM_JOB_ID"
	SlurmArrayJobID     = "SLURM_ARRAY_JOB_ID"
	SlurmArrayTaskID    = "SLURM_ARRAY_TASK_ID"
	SlurmArrayTaskMin   = "SLURM_ARRAY_TASK_MIN"
	SlurmArrayTaskCount = "SLURM_ARRAY_TASK_COUNT"
	SlurmNodeName       = "SLURMD_NODENAME"
	SlurmRestartCount   = "SLURM_RESTART_COUNT"
)

// The variables of a Kubernetes Indexed Job's pod: JOB_COMPLETION_INDEX is
// Kubernetes' own; the others are downward-API variables that the manifest
// of 'clmeter fleet kubernetes' sets (metadata.labels['job-name'],
// metadata.name, spec.nodeName, metadata.namespace and the annotation
// batch.kubernetes.io/job-index-failure-count).
const (
	K8sIndex     = "JOB_COMPLETION_INDEX"
	K8sJob       = "CLMETER_K8S_JOB"
	K8sPod       = "CLMETER_K8S_POD"
	K8sNode      = "CLMETER_K8S_NODE"
	K8sNamespace = "CLMETER_K8S_NAMESPACE"
	K8sFailures  = "CLMETER_K8S_INDEX_FAILURES"
)

// Variables are every variable FromEnv reads: the command reads these and
// no others.
var Variables = []string{SlurmJobID, SlurmArrayJobID, SlurmArrayTaskID, SlurmArrayTaskMin, SlurmArrayTaskCount,
	SlurmNodeName, SlurmRestartCount, K8sIndex, K8sJob, K8sPod, K8sNode, K8sNamespace, K8sFailures}

// The schedulers a Context names.
const (
	Slurm      = "slurm"
	Kubernetes = "kubernetes"
)

// A Context is what the scheduler says about the task clmeter runs in. The
// zero Context is a task outside any scheduler.
type Context struct {
	// Scheduler is Slurm, Kubernetes or "" (none).
	Scheduler string
	// Job is the job's id: Slurm's array job id (else its job id), or the
	// Kubernetes Job's name.
	Job string
	// Task is the task's index in its job, -1 when it has none: Slurm's
	// array task id (not less the array's minimum: see slurm), or the Job's
	// completion index.
	Task int
	// Node is the scheduler's name of the node ("" when it gives none).
	Node string
	// Attempt counts the earlier attempts of this task: Slurm's restart
	// count, or the failures of this index Kubernetes counted.
	Attempt int
	// Labels are the scheduler's variables as labels for the result file
	// and the store ("slurm.job_id", "k8s.pod", ...).
	Labels map[string]string
}

// FromEnv reads the context from env, the values of Variables that are set.
// A variable that should be a number and is not, or that holds a control
// character, is an error naming it.
func FromEnv(env map[string]string) (Context, error) {
	c := Context{Task: -1}
	for _, name := range Variables {
		if v := env[name]; v != "" && (!units.SafeText(v) || len(v) > 256) {
			return c, fmt.Errorf("%s=%q: not a plain line of at most 256 characters, as a scheduler sets it: unset it or set it to the scheduler's value", name, units.Escape(v))
		}
	}
	switch {
	case env[SlurmJobID] != "":
		return slurm(env)
	case env[K8sIndex] != "" || env[K8sJob] != "" || env[K8sPod] != "":
		return kubernetes(env)
	}
	return c, nil
}

// number parses env[name] as a count (0 when unset).
func number(env map[string]string, name string) (int, bool, error) {
	v := strings.TrimSpace(env[name])
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("%s=%q: not a count; the scheduler sets it to a whole number (unset it outside a job)", name, env[name])
	}
	return n, true, nil
}

func slurm(env map[string]string) (Context, error) {
	c := Context{Scheduler: Slurm, Task: -1, Job: env[SlurmJobID], Node: env[SlurmNodeName], Labels: map[string]string{}}
	label := func(key, name string) {
		if v := strings.TrimSpace(env[name]); v != "" {
			c.Labels[key] = v
		}
	}
	label("slurm.job_id", SlurmJobID)
	label("slurm.array_job_id", SlurmArrayJobID)
	label("slurm.array_task_id", SlurmArrayTaskID)
	label("slurm.node", SlurmNodeName)
	label("slurm.restart_count", SlurmRestartCount)
	if a := env[SlurmArrayJobID]; a != "" {
		c.Job = a
	}
	task, isArray, err := number(env, SlurmArrayTaskID)
	if err != nil {
		return c, err
	}
	low, _, err := number(env, SlurmArrayTaskMin)
	if err != nil {
		return c, err
	}
	if _, _, err := number(env, SlurmArrayTaskCount); err != nil {
		return c, err
	}
	if isArray {
		if task < low {
			return c, fmt.Errorf("%s=%d is below %s=%d: not what Slurm sets", SlurmArrayTaskID, task, SlurmArrayTaskMin, low)
		}
		// The index itself, not less the array's minimum: a task
		// resubmitted alone (sbatch --array=2) sees a minimum of 2 and
		// would take another shard's place.
		c.Task = task
	}
	if c.Attempt, _, err = number(env, SlurmRestartCount); err != nil {
		return c, err
	}
	return c, nil
}

func kubernetes(env map[string]string) (Context, error) {
	c := Context{Scheduler: Kubernetes, Task: -1, Job: env[K8sJob], Node: env[K8sNode], Labels: map[string]string{}}
	for key, name := range map[string]string{"k8s.job": K8sJob, "k8s.index": K8sIndex, "k8s.pod": K8sPod,
		"k8s.node": K8sNode, "k8s.namespace": K8sNamespace, "k8s.index_failures": K8sFailures} {
		if v := strings.TrimSpace(env[name]); v != "" {
			c.Labels[key] = v
		}
	}
	idx, ok, err := number(env, K8sIndex)
	if err != nil {
		return c, err
	}
	if ok {
		c.Task = idx
	}
	if c.Attempt, _, err = number(env, K8sFailures); err != nil {
		return c, err
	}
	return c, nil
}
