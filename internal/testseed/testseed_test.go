package testseed

import "testing"

func TestSeedReplays(t *testing.T) {
	t.Setenv(Env, "1795894196890949481")
	if got := Seed(t); got != 1795894196890949481 {
		t.Fatalf("Seed with %s set = %d, want 1795894196890949481", Env, got)
	}
}

func TestSeedFromClock(t *testing.T) {
	t.Setenv(Env, "")
	a := Seed(t)
	if a == 0 {
		t.Fatal("Seed without the variable gave 0")
	}
}
