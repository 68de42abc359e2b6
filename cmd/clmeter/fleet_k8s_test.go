package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
)

// TestFleetKubernetesEnv runs 'run saxpy' over three sizes as pod 1 of a
// two-completion Indexed Job, through the variables Kubernetes and the
// manifest of 'clmeter fleet kubernetes' set: it measures its shard (one of
// the three configurations), and the result file and the store record the
// job, index, pod, node and attempt. An index not below --shards is refused.
func TestFleetKubernetesEnv(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	for k, v := range map[string]string{"JOB_COMPLETION_INDEX": "1", "CLMETER_K8S_JOB": "accept-7", "CLMETER_K8S_POD": "accept-7-1-x2z",
		"CLMETER_K8S_NODE": "worker-3", "CLMETER_K8S_NAMESPACE": "bench", "CLMETER_K8S_INDEX_FAILURES": "1"} {
		t.Setenv(k, v)
	}
	out, db := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.db")
	args := append([]string{"run", "saxpy", "--size", "64Ki,128Ki,256Ki", "--shard", "auto", "--shards", "2", "--store", db, "-o", out}, fast...)
	code, stdout, errs := clm(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	// Sorted names: n=131072, n=262144, n=65536; shard 1 of 2 is the second.
	if len(f.Benchmarks) != 1 || f.Benchmarks[0].Params["n"] != "262144" {
		t.Errorf("shard 1/2 measured %d benchmarks (%v), want n=262144 alone", len(f.Benchmarks), f.Benchmarks)
	}
	fl := f.Fleet
	if fl == nil || fl.Run != "accept-7" || fl.Shard != 1 || fl.Shards != 2 || fl.Node != "worker-3" || fl.Attempt != 1 ||
		fl.Scheduler != "kubernetes" || fl.Labels["k8s.pod"] != "accept-7-1-x2z" || fl.Labels["k8s.namespace"] != "bench" {
		t.Errorf("fleet %+v", fl)
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tasks, err := st.FleetTasks(context.Background(), "accept-7")
	if err != nil || len(tasks) != 1 || !tasks[0].Latest || tasks[0].Node != "worker-3" || tasks[0].Attempt != 1 {
		t.Errorf("store: %+v, %v", tasks, err)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	code, _, errs = clm(t, append([]string{"run", "saxpy", "--size", "64Ki", "--shard", "auto", "--shards", "2"}, fast...)...)
	if code != exitUsage || !strings.Contains(errs, "not below --shards 2") {
		t.Errorf("index 2 of 2 shards: exit %d, %q", code, errs)
	}
}
