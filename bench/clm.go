package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
)

// clm runs clmeter and returns its stdout; a failure carries its stderr.
func clm(args ...string) ([]byte, error) {
	out, _, err := clmRSS(args...)
	return out, err
}

// clmRSS is clm that also returns the process's peak resident memory in
// bytes (wait4's rusage: ru_maxrss).
func clmRSS(args ...string) ([]byte, int64, error) {
	if len(args) > 0 && args[0] == "run" {
		// The table measures launches and builds, not kernels against a roofline:
		// no short device profile is measured on the way.
		args = append(args[:1:1], append([]string{"--no-profile"}, args[1:]...)...)
	}
	cmd := exec.Command(*clmeter, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, 0, fmt.Errorf("clmeter %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, maxRSS(cmd.ProcessState), nil
}

// resultFile is the part of a clmeter result file the table reads.
type resultFile struct {
	Benchmarks []struct {
		Name        string            `json:"name"`
		Params      map[string]string `json:"params"`
		Measurement *struct {
			Summary     summary  `json:"summary"`
			HostSummary *summary `json:"host_summary"`
			Throughput  *struct {
				GBPerS float64 `json:"gb_per_s"`
			} `json:"throughput"`
		} `json:"measurement"`
		Figures []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
			Unit  string  `json:"unit"`
		} `json:"figures"`
	} `json:"benchmarks"`
}

type summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median_ns"`
	Min    float64 `json:"min_ns"`
	CV     float64 `json:"cv"`
}

func clmResult(args ...string) (*resultFile, error) {
	out, err := clm(append(args, "--format", "json")...)
	if err != nil {
		return nil, err
	}
	var f resultFile
	if err := json.Unmarshal(out, &f); err != nil {
		return nil, fmt.Errorf("clmeter %s: %w", strings.Join(args, " "), err)
	}
	if len(f.Benchmarks) == 0 || f.Benchmarks[0].Measurement == nil {
		return nil, fmt.Errorf("clmeter %s: no measurement", strings.Join(args, " "))
	}
	return &f, nil
}

type rawResult struct {
	BackToBack float64 `json:"back_to_back_ns"`
	RoundTrip  float64 `json:"round_trip_ns"`
	Dispatch   float64 `json:"dispatch_ns"`
	// DispatchWide is Dispatch with clpeak's launch-latency shape.
	DispatchWide float64 `json:"dispatch_wide_ns"`
}
