package sched

import (
	"reflect"
	"strings"
	"testing"
)

// TestSlurmArray: an array task's index is its id (a task resubmitted alone
// sees itself as the array's minimum: its index stays its own), the job is
// the array job, and every variable becomes a label.
func TestSlurmArray(t *testing.T) {
	c, err := FromEnv(map[string]string{SlurmJobID: "4244", SlurmArrayJobID: "4242", SlurmArrayTaskID: "7",
		SlurmArrayTaskMin: "5", SlurmArrayTaskCount: "4", SlurmNodeName: "n2", SlurmRestartCount: "1"})
	if err != nil {
		t.Fatal(err)
	}
	want := Context{Scheduler: Slurm, Job: "4242", Task: 7, Node: "n2", Attempt: 1, Labels: map[string]string{
		"slurm.job_id": "4244", "slurm.array_job_id": "4242", "slurm.array_task_id": "7", "slurm.node": "n2", "slurm.restart_count": "1"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
}

// TestSlurmPlainJob: a job that is no array has no task index; its job id
// names it.
func TestSlurmPlainJob(t *testing.T) {
	c, err := FromEnv(map[string]string{SlurmJobID: "17", SlurmNodeName: "gpu01"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Scheduler != Slurm || c.Job != "17" || c.Task != -1 || c.Node != "gpu01" || c.Attempt != 0 {
		t.Errorf("got %+v", c)
	}
}

// TestKubernetes: an Indexed Job's pod, from its completion index and the
// downward-API variables of the manifest.
func TestKubernetes(t *testing.T) {
	c, err := FromEnv(map[string]string{K8sIndex: "3", K8sJob: "clmeter-fleet", K8sPod: "clmeter-fleet-3-abcde",
		K8sNode: "worker-7", K8sNamespace: "bench", K8sFailures: "2"})
	if err != nil {
		t.Fatal(err)
	}
	want := Context{Scheduler: Kubernetes, Job: "clmeter-fleet", Task: 3, Node: "worker-7", Attempt: 2, Labels: map[string]string{
		"k8s.index": "3", "k8s.job": "clmeter-fleet", "k8s.pod": "clmeter-fleet-3-abcde", "k8s.node": "worker-7",
		"k8s.namespace": "bench", "k8s.index_failures": "2"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
}

// TestNone: outside a scheduler the context is empty, without labels.
func TestNone(t *testing.T) {
	c, err := FromEnv(map[string]string{"HOME": "/root"})
	if err != nil || c.Scheduler != "" || c.Task != -1 || len(c.Labels) != 0 {
		t.Errorf("got %+v, %v", c, err)
	}
}

// TestBadValues: a count that is no number, an index below the array's
// minimum and a control character are refused, naming the variable.
func TestBadValues(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{SlurmJobID: "1", SlurmArrayTaskID: "x"}, SlurmArrayTaskID},
		{map[string]string{SlurmJobID: "1", SlurmArrayTaskID: "1", SlurmArrayTaskMin: "3"}, "below"},
		{map[string]string{SlurmJobID: "1", SlurmRestartCount: "-1"}, SlurmRestartCount},
		{map[string]string{K8sIndex: "two"}, K8sIndex},
		{map[string]string{K8sIndex: "0", K8sPod: "p\x1b[31m"}, K8sPod},
	} {
		_, err := FromEnv(tc.env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%v: got %v, want an error naming %s", tc.env, err, tc.want)
		}
	}
}
