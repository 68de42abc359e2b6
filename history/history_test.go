package history

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

var day0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// open creates a new SQLite store at location, closed when t ends.
func open(t *testing.T, location string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), location, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestHistoryRegressionsCI: a 20% step at the newest four runs of a series is
// a regression CI mode fails on; the same step further back, or a newest
// window too short to hold it, is not.
func TestHistoryRegressionsCI(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		stepAt, recent int
		fail           bool
	}{{16, 5, true}, {16, 3, false}, {6, 5, false}} {
		s := open(t, filepath.Join(t.TempDir(), "r.db"))
		for i := range 20 {
			scale := 1.0
			if i >= tc.stepAt {
				scale = 1.2
			}
			f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[2], Created: day0.Add(time.Duration(i) * time.Hour),
				Scale: scale, Noise: 0.005, Seed: uint64(i)})
			if _, err := s.Add(ctx, f, "f", map[string]string{"commit": fmt.Sprintf("%040d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		var out strings.Builder
		err := Write(ctx, s, Options{Regressions: true, CI: true, Recent: tc.recent}, &out)
		if got := errors.Is(err, ErrRegression); got != tc.fail {
			t.Errorf("step at %d, recent %d: err %v, want a regression error: %v\n%s", tc.stepAt, tc.recent, err, tc.fail, out.String())
		}
		if !strings.Contains(out.String(), "regression") || !strings.Contains(out.String(), "+20.") {
			t.Errorf("step at %d: the table does not show it:\n%s", tc.stepAt, out.String())
		}
		t.Logf("step at %d, recent %d:\n%s", tc.stepAt, tc.recent, out.String())
	}
}
