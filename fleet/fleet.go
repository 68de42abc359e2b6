// Package fleet places one task in a fleet run: which shard of a sorted list
// of benchmark names it measures (--shard i/n, or --shard auto --shards N
// with the index from the scheduler), and the run, attempt and node that its
// results carry (results.FleetInfo). Every name falls in exactly one shard.
package fleet

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/sched"
)

// A Shard is one part of n of a list of names; the zero Shard (Count 0) is
// the whole list.
type Shard struct {
	Index, Count int
}

// String is "i/n", or "" for the whole list.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShard reads --shard and --shards: "" (no sharding, --shards unset),
// "i/n" (--shards unset or n), or "auto" with --shards N, the index taken
// from the scheduler (c.Task: Slurm's array index, so the array counts from
// 0, --array=0-(N-1); or the Indexed Job's completion index). The count is never taken from the
// environment (a Slurm task resubmitted alone sees an array of one), and an
// index not below the count is refused.
func ParseShard(flag string, shards int, c sched.Context) (Shard, error) {
	flag = strings.TrimSpace(flag)
	switch {
	case shards < 0:
		return Shard{}, fail.Usagef("--shards %d: want the number of shards, 1 or more", shards)
	case flag == "" && shards > 0:
		return Shard{}, fail.Usagef("--shards %d without --shard: give --shard auto (the index from the scheduler) or --shard i/%d", shards, shards)
	case flag == "":
		return Shard{}, nil
	case flag == "auto":
		return autoShard(shards, c)
	}
	i, n, ok := strings.Cut(flag, "/")
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || cnt < 1 {
		return Shard{}, fail.Usagef("--shard %q: want i/n (this task's shard i of n, counted from 0, e.g. --shard 0/4) or auto with --shards N", flag)
	}
	if idx < 0 || idx >= cnt {
		return Shard{}, fail.Usagef("--shard %q: the index must be 0 to %d for %d shards", flag, cnt-1, cnt)
	}
	if shards > 0 && shards != cnt {
		return Shard{}, fail.Usagef("--shard %s says %d shards but --shards says %d: give one of them", flag, cnt, shards)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

func autoShard(shards int, c sched.Context) (Shard, error) {
	if shards == 0 {
		return Shard{}, fail.Usagef("--shard auto needs --shards N, the number of shards (it is never taken from the scheduler: a Slurm task resubmitted alone sees an array of one)")
	}
	if c.Task < 0 {
		return Shard{}, fail.Usagef("--shard auto: no task index from a scheduler (%s in a Slurm array, %s in a Kubernetes Indexed Job): outside one, give --shard i/%d",
			sched.SlurmArrayTaskID, sched.K8sIndex, shards)
	}
	if c.Task >= shards {
		return Shard{}, fail.Usagef("--shard auto: this task's index is %d (%s), not below --shards %d: submit as many tasks as shards (sbatch --array=0-%d, completions: %d)",
			c.Task, indexSource(c), shards, shards-1, shards)
	}
	return Shard{Index: c.Task, Count: shards}, nil
}

func indexSource(c sched.Context) string {
	if c.Scheduler == sched.Slurm {
		return sched.SlurmArrayTaskID
	}
	return sched.K8sIndex
}

// Split returns the names of shard s: the distinct names sorted, and of
// those every Count-th from position Index. The shards of one list hold
// every name exactly once, and their sizes differ by at most one.
func Split(names []string, s Shard) []string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if s.Count == 0 {
		return sorted
	}
	var out []string
	for k := s.Index; k < len(sorted); k += s.Count {
		out = append(out, sorted[k])
	}
	return out
}

// Of returns the predicate of shard s over names: whether a name is in the
// shard (false for a name not in names).
func Of(names []string, s Shard) func(name string) bool {
	in := map[string]bool{}
	for _, n := range Split(names, s) {
		in[n] = true
	}
	return func(name string) bool { return in[name] }
}

// Pattern returns a regular expression that matches exactly the names of
// shard s among names (whole names), for a path that filters by a
// regular expression (a suite's --filter).
func Pattern(names []string, s Shard) *regexp.Regexp {
	mine := Split(names, s)
	if len(mine) == 0 {
		return regexp.MustCompile(`[^\s\S]`) // matches nothing
	}
	quoted := make([]string, len(mine))
	for i, n := range mine {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile("^(?:" + strings.Join(quoted, "|") + ")$")
}

// EmptyError is the error of a shard that holds no name: more shards than
// names, or no names at all.
func EmptyError(what string, total int, s Shard) error {
	if total == 0 {
		return fail.Usagef("--shard %s: %s names no benchmark to split (its --filter matched none, or it does not take one): run it without --shard", s, what)
	}
	return fail.Usagef("--shard %s: %s has %d item(s), so shard %d of %d holds none: use --shards %d or fewer", s, what, total, s.Index, s.Count, max(total, 1))
}

// Place returns where a task's results sit in the fleet: the run (run, else
// the scheduler's job id), the shard, the attempt and the node (the
// scheduler's name, else host) with the scheduler's labels. It is nil
// outside a fleet: no run, no scheduler and no shard.
func Place(run string, s Shard, c sched.Context, host string) *results.FleetInfo {
	if run == "" {
		run = c.Job
	}
	if run == "" && c.Scheduler == "" && s.Count == 0 {
		return nil
	}
	node := c.Node
	if node == "" {
		node = host
	}
	f := &results.FleetInfo{Run: run, Shard: s.Index, Shards: s.Count, Attempt: c.Attempt, Node: node, Scheduler: c.Scheduler}
	if len(c.Labels) > 0 {
		f.Labels = map[string]string{}
		for k, v := range c.Labels {
			f.Labels[k] = v
		}
	}
	return f
}
