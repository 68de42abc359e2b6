package results

// FleetInfo places a File in a fleet run: one campaign of many tasks (the
// shards of a list of benchmarks, or one task per node), each a task of a
// batch scheduler or a process started by hand, all adding to one store.
type FleetInfo struct {
	// Run names the campaign (--fleet-run; by default the scheduler's job
	// id); empty when only the scheduler's context is known.
	Run string `json:"run,omitempty"`
	// Shard is this task's shard, 0 to Shards-1, when Shards > 0 (--shard);
	// Shards 0 is a task that ran every benchmark.
	Shard  int `json:"shard"`
	Shards int `json:"shards,omitempty"`
	// Attempt counts the earlier attempts of this task (Slurm's restart
	// count, a Kubernetes index's failures): 0 for the first.
	Attempt int `json:"attempt,omitempty"`
	// Node is the scheduler's name of the node (two logical Slurm nodes on
	// one host differ here), else the host name.
	Node string `json:"node,omitempty"`
	// Scheduler is "slurm", "kubernetes" or empty (a process started by hand).
	Scheduler string `json:"scheduler,omitempty"`
	// Labels are the scheduler's variables ("slurm.job_id", "k8s.pod", ...),
	// stored as the upload's labels.
	Labels map[string]string `json:"labels,omitempty"`
}
