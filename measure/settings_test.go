package measure

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestValidateGiven(t *testing.T) {
	ok := DefaultSettings()
	if err := ok.ValidateGiven(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for name, c := range map[string]struct {
		change func(*Settings)
		want   string
	}{
		"max-time -1s":       {func(s *Settings) { s.MaxTime = -time.Second }, "--max-time must be above zero"},
		"max-time 0":         {func(s *Settings) { s.MaxTime = 0 }, "--max-time must be above zero"},
		"max-noise -0.5":     {func(s *Settings) { s.MaxNoise = -0.5 }, "--max-noise must be above zero"},
		"max-noise 0":        {func(s *Settings) { s.MaxNoise = 0 }, "--max-noise must be above zero"},
		"max-noise NaN":      {func(s *Settings) { s.MaxNoise = math.NaN() }, "--max-noise"},
		"max-noise 1":        {func(s *Settings) { s.MaxNoise = 1 }, "below 1"},
		"min-sample-time 0":  {func(s *Settings) { s.MinSampleTime = 0 }, "--min-sample-time must be above zero"},
		"min-samples 0":      {func(s *Settings) { s.MinSamples = 0 }, "--min-samples must be at least 1"},
		"samples 1e9":        {func(s *Settings) { s.Samples = 1_000_000_000 }, "231d11h"},
		"samples -1":         {func(s *Settings) { s.Samples = -1 }, "--samples"},
		"kernel-timeout -1s": {func(s *Settings) { s.KernelTimeout = -time.Second }, "--kernel-timeout"},
	} {
		s := DefaultSettings()
		c.change(&s)
		err := s.ValidateGiven()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", name, err, c.want)
		}
	}
	// The zero Settings mean the defaults for Validate, but not for ValidateGiven.
	if err := (Settings{}).Validate(); err != nil {
		t.Errorf("Settings{}.Validate: %v", err)
	}
	if err := (Settings{MaxTime: -1}).Validate(); err == nil {
		t.Error("a negative MaxTime passed Validate")
	}
}

func TestSamplingNote(t *testing.T) {
	s := DefaultSettings()
	s.Samples = 1000
	if n := s.SamplingNote(); !strings.Contains(n, "takes at least 20s a benchmark") || !strings.Contains(n, "--max-time 10s") {
		t.Errorf("note: %q", n)
	}
	s.Samples = 100
	if n := s.SamplingNote(); n != "" {
		t.Errorf("100 samples of 20ms fit 10s, got %q", n)
	}
	s.Samples, s.Cold = 100000, true
	if s.SamplingTime() != 0 || s.Validate() != nil {
		t.Error("cold samples have no known length")
	}
}
