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
	// Why gives the reason; the figures measured are in docs/CACHE.md, with
	// device and date (figures from one machine never go in code or help).
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
			Why: "a hit skips PoCL's build and its first launch's compile, so the first result comes sooner than with PoCL's cache alone; " +
				"a miss pays once, after the work, to compile what PoCL's binary holds (docs/CACHE.md gives the figures measured, with device and date)"}
	case driverNVIDIA:
		if envValue(env, "CUDA_CACHE_DISABLE") == "1" {
			return Policy{Family: family, On: true,
				Stores: "the driver's binary (PTX)",
				Why:    "CUDA_CACHE_DISABLE=1 turns the driver's cache off, so clmeter's PTX saves the front end; unset it: the driver's cache saves far more, and context creation is far slower without it (docs/CACHE.md gives the figures measured, with device and date)"}
		}
		return Policy{Family: family, On: false,
			Stores: "nothing by default (CLMETER_CACHE=1: the driver's binary, PTX)",
			Why:    "the driver's cache (on by default) already skips the compile to machine code; a hit from PTX alone still compiles, and with both warm clmeter's cache adds nothing measurable (docs/CACHE.md gives the figures measured, with device and date)"}
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
