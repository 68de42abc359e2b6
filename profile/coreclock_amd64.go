package profile

import (
	"fmt"
	"time"
)

// The core clock is counted in cycles of two dependent chains, timed by the
// monotonic clock (not the TSC, whose rate is the nominal clock, not the
// core's):
//
//   - IMUL r64, r64 has a latency of 3 cycles on every Intel core since
//     Nehalem (Sandy Bridge to Alder Lake-P, Sapphire Rapids included) and on
//     AMD Zen 1 to 5 (uops.info, "IMUL (R64, R64)"; Agner Fog, "Instruction
//     tables"; Peter Cordes on Stack Overflow, "x86_64: is IMUL faster than
//     2x SHL + 2x ADD?": 3c on SnB-family and Ryzen even for 64-bit operands).
//     Nothing shortcuts a multiplication by a large odd number, so the chain
//     is the figure this file trusts.
//   - ADD r64, r64 takes 1 cycle everywhere. It is kept as a check that the
//     multiplication took the 3 cycles assumed: the two must agree, or the
//     clock is refused (CheckCoreClock). The addend is a register on purpose:
//     Golden Cove and later Intel P-cores (Alder Lake, Sapphire Rapids) add
//     small immediates at register renaming with zero latency, up to 5 a
//     cycle (uops.info, "INC (R64)" on Alder Lake-P; tavianator.com, "The
//     Alder Lake anomaly, explained"; A. Ertl, "Zero-cycle constant adds",
//     complang.tuwien.ac.at/anton/additions), which made the former chain of
//     ADD $1 read 16 GHz on a 4 GHz Xeon. Ertl's loops on a Raptor Cove core
//     show five dependent ADD reg, reg taking 5 cycles and IMUL + ADD reg
//     taking 4, as assumed here.

// mulChain runs n trips of four dependent multiplications by x and returns
// x^(4n) (coreclock_amd64.s).
func mulChain(n int64, x uint64) uint64

// addChain runs n trips of four dependent additions of x and returns 4nx
// (coreclock_amd64.s).
func addChain(n int64, x uint64) uint64

// Each chain is timed in runs of about 2 ms, alternately, so that a clock
// change touches both; the fastest run counts (one the scheduler or a
// hypervisor interrupted is slower, never faster). Runs of 2 ms fit between
// the interruptions of a loaded machine and are long enough to give the clock
// a core sustains rather than a moment's. It runs minChainRuns rounds, and
// more while the fastest runs are not settled, up to maxChainTime. It times
// the chains itself, outside the harness: they run on the host, with no
// device or launch, and the fastest run is the figure (internal/archcheck
// lists it).
func measureChains() MeasuredClock {
	const (
		mulTrips = 700_000   // 8.4 M cycles: 2.1 ms at 4 GHz
		addTrips = 2_000_000 // 8 M cycles: 2 ms at 4 GHz
	)
	var x uint64 = 0x9e3779b97f4a7c15 // odd: its powers are never 0
	mulChain(10*mulTrips, x)          // the core ramps up
	var mul, add []time.Duration
	start := time.Now()
	for len(mul) < minChainRuns || !settled(mul) || !settled(add) {
		if time.Since(start) > maxChainTime {
			break
		}
		t := time.Now()
		if got := mulChain(mulTrips, x); got != powMod64(x, 4*mulTrips) {
			return MeasuredClock{Err: fmt.Sprintf("the multiply chain returned %#x, not x^%d", got, 4*mulTrips)}
		}
		mul = append(mul, time.Since(t))
		t = time.Now()
		if got := addChain(addTrips, x); got != uint64(4*addTrips)*x {
			return MeasuredClock{Err: fmt.Sprintf("the add chain returned %#x, not %d x", got, 4*addTrips)}
		}
		add = append(add, time.Since(t))
	}
	return clockFromRuns(3*4*mulTrips, mul, 4*addTrips, add)
}
