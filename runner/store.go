package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// checkStore fails, before anything is measured, when results could not be
// added to the store at loc later (nothing when loc is empty).
func checkStore(loc string) error {
	if loc == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := store.CheckWritable(ctx, loc); err != nil {
		return fmt.Errorf("--store: %w (nothing was measured)", err)
	}
	return nil
}

// saveToStore adds what a run, suite or compare measured to the store at loc
// (nothing when loc is empty or nothing finished) and says where on stderr.
// It runs even when ctx was interrupted, so that what finished is kept.
// While the store's server does not answer it tries again as retry says;
// after the last try the results stay in a JSON file (output, else one it
// writes in the current folder), and the error says how to add it later.
func saveToStore(ctx context.Context, loc string, labels map[string]string, output string, file results.File, stderr io.Writer, retry Backoff) error {
	if loc == "" || len(file.Benchmarks) == 0 {
		return nil
	}
	source := output
	if source == "" {
		source = strings.Join(store.RedactCommand(file.CommandLine), " ")
	}
	var a store.Added
	err := retry.do(ctx, stderr, func() error {
		var err error
		a, err = store.AddResultFile(context.WithoutCancel(ctx), loc, &file, source, labels)
		return err
	})
	if errors.Is(err, store.ErrUnreachable) {
		return keepUnstored(loc, output, file, err)
	}
	if err != nil {
		return fmt.Errorf("storing the results: %w", err)
	}
	labelText := ""
	if l := store.LabelText(a.Labels); l != "" {
		labelText = " (" + l + ")"
	}
	table.WriteWrapped(stderr, fmt.Sprintf("clmeter: stored %s as upload %d%s", units.Count(a.Benchmarks, "benchmark"), a.UploadID, labelText), table.Width(stderr), "", "    ")
	return nil
}

// keepUnstored is the error of results the store did not take: they are in
// output (written as they finished), else in a file it writes now.
func keepUnstored(loc, output string, file results.File, err error) error {
	path := output
	if path == "" {
		path = unstoredName(file)
		if werr := results.WriteFile(path, &file); werr != nil {
			return fmt.Errorf("storing the results: %w; writing them to %s failed too: %v", err, path, werr)
		}
	}
	return fmt.Errorf("storing the results: %w; the results are in %s: add them later with: clmeter store add --store %s %s",
		err, path, shellQuote(store.RedactLocation(loc)), shellQuote(path))
}

// unstoredName is the file an upload that failed leaves its results in: in
// the current folder, named after the task's place in the fleet (run,
// shard, node, attempt), else after the time the run started.
func unstoredName(file results.File) string {
	name := "clmeter-unstored-" + file.Created.UTC().Format("20060102T150405Z")
	if fl := file.Fleet; fl != nil {
		name = "clmeter-unstored-" + fl.Run + "-" + fl.Node
		if fl.Shards > 0 {
			name += fmt.Sprintf("-shard%dof%d", fl.Shard, fl.Shards)
		}
		name += fmt.Sprintf("-attempt%d", fl.Attempt)
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name) + ".json"
}

// shellQuote quotes s for a shell when it holds more than letters, digits
// and / . _ - : @ = ,
func shellQuote(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:@=,+", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// Backoff is how an upload is tried again while the store's server does
// not answer: for up to Total after the first try, waiting First (default
// 1 s) and then twice as long each time, at most 30 s a wait. The zero
// Backoff tries once.
type Backoff struct {
	Total, First time.Duration
}

// do calls try until it succeeds, fails otherwise than with an unreachable
// server, Total has passed, or ctx is canceled, and returns its last error.
func (b Backoff) do(ctx context.Context, stderr io.Writer, try func() error) error {
	wait := b.First
	if wait <= 0 {
		wait = time.Second
	}
	deadline := time.Now().Add(b.Total)
	for n := 1; ; n++ {
		err := try()
		if err == nil || !errors.Is(err, store.ErrUnreachable) || b.Total <= 0 {
			return err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return err
		}
		wait = min(wait, left)
		fmt.Fprintf(stderr, "clmeter: the store does not answer (try %d): trying again in %v\n", n, wait.Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}
