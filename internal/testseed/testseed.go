// Package testseed gives a randomised test its seed: a fresh one from the
// clock, or the one named by CLMETER_TEST_SEED to replay a failure; either way
// the seed is logged, with the line that replays it.
package testseed

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// Env names the variable that replays a randomised test: the seed a failed
// run logged ("CLMETER_TEST_SEED=N go test -run TestX ./pkg/").
const Env = "CLMETER_TEST_SEED"

// Seed returns the seed for t: the value of CLMETER_TEST_SEED when it is set
// (t fails at once when it is not a number), else one from the clock. It logs
// the seed and how to replay it, so a failure can be run again on purpose.
func Seed(t testing.TB) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(Env); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a seed as a test logged it (a number 0 to 2^64-1)", Env, v)
		}
		seed = s
	}
	t.Logf("seed %d (replay: %s=%d go test -run '^%s$')", seed, Env, seed, t.Name())
	return seed
}
