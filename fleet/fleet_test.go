package fleet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/internal/testseed"
	"github.com/clmeter/clmeter/sched"
)

// TestSplitEveryNameOnce: over random lists and shard counts, every name is
// in exactly one shard, shard sizes differ by at most one, the predicate and
// the pattern agree with Split, and the split does not depend on the
// list's order.
func TestSplitEveryNameOnce(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 0))
	for trial := 0; trial < 200; trial++ {
		var names []string
		for i := range r.IntN(40) {
			names = append(names, fmt.Sprintf("suite/%c/%d", 'a'+r.IntN(5), i%17))
		}
		n := 1 + r.IntN(9)
		shuffled := slices.Clone(names)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		seen := map[string]int{}
		sizes := []int{}
		for i := range n {
			s := Shard{Index: i, Count: n}
			part := Split(names, s)
			if !slices.Equal(part, Split(shuffled, s)) {
				t.Fatalf("trial %d: shard %v depends on the list's order", trial, s)
			}
			in, re := Of(names, s), Pattern(names, s)
			for _, name := range names {
				want := slices.Contains(part, name)
				if in(name) != want || re.MatchString(name) != want {
					t.Fatalf("trial %d: %q in shard %v: Split %v, Of %v, Pattern %v", trial, name, s, want, in(name), re.MatchString(name))
				}
			}
			for _, name := range part {
				seen[name]++
			}
			sizes = append(sizes, len(part))
		}
		for _, name := range names {
			if seen[name] != 1 {
				t.Fatalf("trial %d: %q is in %d shards of %d", trial, name, seen[name], n)
			}
		}
		if slices.Max(sizes)-slices.Min(sizes) > 1 {
			t.Fatalf("trial %d: shard sizes %v differ by more than one", trial, sizes)
		}
	}
}

// TestPatternQuotes: a name with regular-expression characters matches only
// itself.
func TestPatternQuotes(t *testing.T) {
	names := []string{"a.b", "axb", "c(d)"}
	re := Pattern(names, Shard{Index: 0, Count: 1})
	if !re.MatchString("a.b") || !re.MatchString("c(d)") || re.MatchString("a.bc") || re.MatchString("zz") {
		t.Errorf("pattern %s", re)
	}
	if Pattern(nil, Shard{Index: 0, Count: 2}).MatchString("") {
		t.Error("the empty shard's pattern matches")
	}
}

// TestParseShard: i/n, auto from Slurm and Kubernetes, and the refusals.
func TestParseShard(t *testing.T) {
	slurm := sched.Context{Scheduler: sched.Slurm, Task: 2}
	k8s := sched.Context{Scheduler: sched.Kubernetes, Task: 3}
	none := sched.Context{Task: -1}
	for _, tc := range []struct {
		flag   string
		shards int
		c      sched.Context
		want   Shard
		err    string
	}{
		{"", 0, none, Shard{}, ""},
		{"1/4", 0, none, Shard{1, 4}, ""},
		{"1/4", 4, none, Shard{1, 4}, ""},
		{"auto", 4, slurm, Shard{2, 4}, ""},
		{"auto", 4, k8s, Shard{3, 4}, ""},
		{"auto", 3, k8s, Shard{}, "not below --shards 3"},
		{"auto", 0, slurm, Shard{}, "needs --shards"},
		{"auto", 4, none, Shard{}, "no task index"},
		{"4/4", 0, none, Shard{}, "0 to 3"},
		{"-1/4", 0, none, Shard{}, "0 to 3"},
		{"1/0", 0, none, Shard{}, "want i/n"},
		{"x", 0, none, Shard{}, "want i/n"},
		{"1/4", 3, none, Shard{}, "give one of them"},
		{"", 4, slurm, Shard{}, "without --shard"},
	} {
		got, err := ParseShard(tc.flag, tc.shards, tc.c)
		if tc.err == "" && (err != nil || got != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseShard(%q, %d, %+v) = %v, %v; want %v, %q", tc.flag, tc.shards, tc.c, got, err, tc.want, tc.err)
		}
	}
}

// TestPlace: the run defaults to the scheduler's job, the node to the host
// name; outside a fleet there is no place.
func TestPlace(t *testing.T) {
	c := sched.Context{Scheduler: sched.Slurm, Job: "4242", Task: 1, Node: "n2", Attempt: 1, Labels: map[string]string{"slurm.job_id": "4243"}}
	f := Place("", Shard{1, 4}, c, "vm")
	if f.Run != "4242" || f.Shard != 1 || f.Shards != 4 || f.Attempt != 1 || f.Node != "n2" || f.Scheduler != "slurm" || f.Labels["slurm.job_id"] != "4243" {
		t.Errorf("got %+v", f)
	}
	if f := Place("campaign-7", Shard{}, sched.Context{Task: -1}, "vm"); f.Run != "campaign-7" || f.Node != "vm" || f.Shards != 0 {
		t.Errorf("got %+v", f)
	}
	if f := Place("", Shard{}, sched.Context{Task: -1}, "vm"); f != nil {
		t.Errorf("outside a fleet: got %+v", f)
	}
}
