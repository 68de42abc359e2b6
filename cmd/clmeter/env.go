package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/sched"
)

// environment reads the CLMETER_* variables that are no flag's EnvVars:
// cmd/clmeter is the one place that reads them (internal/archcheck), and
// passes their values down in the packages' options. envHelp documents each.
type environment struct{}

// env is the process's environment, read when a command asks.
var env environment

// oclgrindICD is CLMETER_OCLGRIND_ICD: Oclgrind's ICD library ("" searches).
func (environment) oclgrindICD() string { return os.Getenv(icd.OclgrindICDEnv) }

// cacheDir is the binary cache's folder: CLMETER_CACHE_DIR, else the user
// cache folder's clmeter ("" when there is none).
func (environment) cacheDir() string {
	if d := os.Getenv(cache.DirEnv); d != "" {
		return d
	}
	d, _ := cache.DefaultDir()
	return d
}

// profileDir is CLMETER_PROFILE_DIR: the device profiles' folder ("": the
// user cache folder's).
func (environment) profileDir() string { return os.Getenv(profile.DirEnv) }

// cacheConfig is the binary cache the CLMETER_CACHE* variables ask for, for
// the hidden child commands that take no cache flags.
func (e environment) cacheConfig() cache.Config {
	return cache.Config{Dir: os.Getenv(cache.DirEnv), MaxSize: os.Getenv(cache.MaxSizeEnv), Off: envTrue(cache.OffEnv),
		Force: e.cacheForce(), Debug: e.cacheDebug(), WaitStore: e.cacheStoreWait()}
}

// cacheForce is CLMETER_CACHE=1: the binary cache on for every driver.
func (environment) cacheForce() bool { return envTrue(cache.ForceEnv) }

// cacheDebug is CLMETER_CACHE_DEBUG=1: one line per cache event on stderr.
func (environment) cacheDebug() bool { return envTrue(cache.DebugEnv) }

// cacheStoreWait is CLMETER_CACHE_STORE_WAIT=1: wait for the store child.
func (environment) cacheStoreWait() bool { return envTrue(cache.StoreWaitEnv) }

// envTrue reports whether the variable name is set to 1, true, yes or on.
func envTrue(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// checkSwitches refuses a CLMETER_* switch set to a value that is neither on
// nor off, in one line naming the variable and the values it takes, before
// any command runs. CLMETER_NO_CACHE is also --no-cache's EnvVars, which
// take what strconv.ParseBool does; the others, read by envTrue, take
// 1/0, true/false, yes/no and on/off.
func (environment) checkSwitches() error {
	if v := os.Getenv(cache.OffEnv); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			return usageErr("%s=%q: want 1 (build every program from source) or 0; true and false work too", cache.OffEnv, v)
		}
	}
	for _, name := range []string{cache.ForceEnv, cache.DebugEnv, cache.StoreWaitEnv} {
		switch strings.ToLower(os.Getenv(name)) {
		case "", "1", "true", "yes", "on", "0", "false", "no", "off":
		default:
			return usageErr("%s=%q: want 1 (on) or 0 (off); true/false, yes/no and on/off work too", name, os.Getenv(name))
		}
	}
	return nil
}

// scheduler is the batch scheduler's context of this task: the variables
// of package sched (Slurm's, a Kubernetes Indexed Job's), read here and
// handed to sched.FromEnv.
func (environment) scheduler() (sched.Context, error) {
	vars := map[string]string{}
	for _, name := range sched.Variables {
		if v, ok := os.LookupEnv(name); ok {
			vars[name] = v
		}
	}
	return sched.FromEnv(vars)
}
