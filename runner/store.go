package runner

import (
	"context"
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
func saveToStore(ctx context.Context, loc string, labels map[string]string, output string, file results.File, stderr io.Writer) error {
	if loc == "" || len(file.Benchmarks) == 0 {
		return nil
	}
	source := output
	if source == "" {
		source = strings.Join(store.RedactCommand(file.CommandLine), " ")
	}
	a, err := store.AddResultFile(context.WithoutCancel(ctx), loc, &file, source, labels)
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
