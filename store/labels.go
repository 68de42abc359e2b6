package store

import (
	"sort"
	"strings"
)

// ShortCommit shortens a commit hash to its first 10 characters.
func ShortCommit(commit string) string {
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}

// LabelText joins labels as "k=v k=v", sorted, commits shortened.
func LabelText(l map[string]string) string { return joinLabels(l, " ", ShortCommit) }

// LabelList joins labels as "k=v;k=v", sorted, in full (a CSV cell).
func LabelList(l map[string]string) string { return joinLabels(l, ";", nil) }

// joinLabels joins labels as k=v in key order with sep, each commit value
// passed through commit (nil: as it is).
func joinLabels(l map[string]string, sep string, commit func(string) string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := l[k]
		if k == "commit" && commit != nil {
			v = commit(v)
		}
		parts[i] = k + "=" + v
	}
	return strings.Join(parts, sep)
}
