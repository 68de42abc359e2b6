package cache

import (
	"os"
	"strings"

	"github.com/clmeter/clmeter/runtime"
)

// CacheForceEnv, set to 1, turns clmeter's binary cache on for every driver,
// also where its policy leaves it off (see PolicyFor).
const ForceEnv = "CLMETER_CACHE"

// A Policy is what clmeter's binary cache does by default on one driver
// family, and the figures behind the choice. 'clmeter cache bench' measures
// them on the device at hand.
type Policy struct {
	// Family is the driver family (DriverFamily); "" for drivers clmeter does not know.
	Family string `json:"family"`
	// On says whether the cache serves and stores programs by default.
	On bool `json:"on"`
	// Stores says what an entry holds.
	Stores string `json:"stores"`
	// Why gives the reason, with the figures measured.
	Why string `json:"why"`
}

// PolicyFor returns clmeter's binary-cache policy for a driver family
// under the environment env ("NAME=value" entries, as os.Environ gives).
//
//   - PoCL: on. A miss is stored after the work, so the entry also holds the
//     work-group functions the run's first launches compiled; a hit then skips
//     both the build and the first launch's compile.
//   - NVIDIA: off while the driver's own cache is on (its default): the binary
//     clmeter can store is PTX, a hit still compiles it to machine code unless
//     the driver's cache is warm, and with the driver's cache warm clmeter's
//     adds nothing. On when CUDA_CACHE_DISABLE=1 turns the driver's cache off.
//   - other drivers: on, storing the driver's binary (no figures say otherwise).
func PolicyFor(family string, env []string) Policy {
	switch family {
	case driverPoCL:
		return Policy{Family: family, On: true,
			Stores: "PoCL's binary read after the work: the program's IR, its kernels' metadata, each kernel's generic work-group function and the specialised ones the run's launches compiled",
			Why: "a hit skips PoCL's build and its first launch's compile: with both caches warm the time to first result is 1.15-1.34x shorter than with PoCL's cache alone (builds of 7-23 ms against 64-67 ms on a 2-core EPYC); " +
				"a miss pays 0.12-0.17 s a kernel once, after the work, to compile what PoCL's binary holds"}
	case driverNVIDIA:
		if envValue(env, "CUDA_CACHE_DISABLE") == "1" {
			return Policy{Family: family, On: true,
				Stores: "the driver's binary (PTX)",
				Why:    "CUDA_CACHE_DISABLE=1 turns the driver's cache off, so clmeter's PTX saves the front end (1.8x build on an H200); unset it: the driver's cache saves far more (209x build) and context creation takes 1.3-1.7 s without it"}
		}
		return Policy{Family: family, On: false,
			Stores: "nothing by default (CLMETER_CACHE=1: the driver's binary, PTX)",
			Why:    "the driver's cache (on by default) already skips the compile to machine code; a hit from PTX alone still compiles (1074 ms for 32 kernels on an H200), and with both warm clmeter's cache adds nothing (172 vs 168 ms, 161 vs 163 ms time to first result)"}
	}
	name := family
	if name == "" {
		name = "this driver"
	}
	return Policy{Family: family, On: true,
		Stores: "the driver's binary, read after the work",
		Why:    "no figures for " + name + " say otherwise: run clmeter cache bench to see what each cache saves"}
}

// envValue is the value of name in env ("" when unset).
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// policy is the cache's policy for d: on for every device when Force is set.
func (c *Cache) policy(d *runtime.Device) Policy {
	p := PolicyFor(DriverFamily(d.Platform.Name, d.Platform.Vendor), os.Environ())
	if c.Force {
		p.On = true
	}
	return p
}
