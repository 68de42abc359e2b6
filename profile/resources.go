package profile

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// NVVerbose is the build option that makes NVIDIA's OpenCL compiler print
// ptxas's resource usage into the build log.
const NVVerbose = "-cl-nv-verbose"

// PtxasUsage is one kernel's resource usage as ptxas prints it.
type PtxasUsage struct {
	Registers                    int
	SpillStores, SpillLoads      int64
	HasRegisters, HasSpillCounts bool
}

var (
	ptxasEntry  = regexp.MustCompile(`(?:Compiling entry function|Function properties for) '?([A-Za-z_][A-Za-z0-9_$.]*)'?`)
	ptxasRegs   = regexp.MustCompile(`Used (\d+) registers`)
	ptxasStores = regexp.MustCompile(`(\d+) bytes spill stores`)
	ptxasLoads  = regexp.MustCompile(`(\d+) bytes spill loads`)
)

// ParsePtxas reads the ptxas lines of an NVIDIA build log (built with
// -cl-nv-verbose) and returns each kernel's usage by name. It understands both
// the one-line form ("ptxas info    : Used 32 registers, 0 bytes spill stores,
// 0 bytes spill loads") and the newer one where the spill counts follow
// "Function properties for NAME" on their own line. Lines before any kernel is
// named are given to the name "".
func ParsePtxas(log string) map[string]PtxasUsage {
	out := map[string]PtxasUsage{}
	cur := ""
	for _, line := range strings.Split(log, "\n") {
		if m := ptxasEntry.FindStringSubmatch(line); m != nil {
			cur = m[1]
		}
		u, seen := out[cur]
		if m := ptxasRegs.FindStringSubmatch(line); m != nil {
			u.Registers, _ = strconv.Atoi(m[1])
			u.HasRegisters, seen = true, true
		}
		if m := ptxasStores.FindStringSubmatch(line); m != nil {
			u.SpillStores, _ = strconv.ParseInt(m[1], 10, 64)
			u.HasSpillCounts, seen = true, true
		}
		if m := ptxasLoads.FindStringSubmatch(line); m != nil {
			u.SpillLoads, _ = strconv.ParseInt(m[1], 10, 64)
			u.HasSpillCounts, seen = true, true
		}
		if seen {
			out[cur] = u
		}
	}
	return out
}

// IsNVIDIA reports whether dev is an NVIDIA device (its driver understands
// -cl-nv-verbose).
func IsNVIDIA(dev *runtime.Device) bool {
	return dev.Info.NVComputeCapability != "" || strings.Contains(strings.ToUpper(dev.Info.Vendor), "NVIDIA")
}

// KernelResources reads what kernel takes of dev: clGetKernelWorkGroupInfo's
// figures, and on NVIDIA the registers and spills that ptxas prints when the
// program is built again with -cl-nv-verbose, outside the binary cache and
// with a nonce kernel added to the source: NVIDIA's own cache keys on the
// program's PTX, and a build it serves runs no ptxas and prints nothing (the
// second of three sizes of one kernel had no registers before). Each
// kernel's resources are read once a process (sizes and axes share them).
// Elsewhere Note says the driver does not report registers.
func KernelResources(dev *runtime.Device, src runtime.Source, options, kernel string) (*results.Resources, error) {
	key := resourcesKey{src.Text, options, kernel}
	r, err := resourcesSeen.Do(dev, key, func() (results.Resources, error) {
		r, err := kernelResources(dev, src, options, kernel)
		if err != nil {
			return results.Resources{}, err
		}
		return *r, nil
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// resourcesKey names one kernel's resources on a device.
type resourcesKey struct{ text, options, kernel string }

// resourcesSeen holds the resources read on a device in this process, on the
// device's session.
var resourcesSeen = runtime.NewMemo[resourcesKey, results.Resources]("kernel resources")

// nonceSeq numbers the nonce kernels of this process.
var nonceSeq atomic.Int64

func kernelResources(dev *runtime.Device, src runtime.Source, options, kernel string) (*results.Resources, error) {
	nv := IsNVIDIA(dev)
	var build = dev.BuildProgram
	opts := options
	if nv {
		build = dev.BuildFromSource
		if !strings.Contains(opts, NVVerbose) {
			opts = strings.TrimSpace(opts + " " + NVVerbose)
		}
		src.Text += fmt.Sprintf("\n__kernel void clmeter_resources_nonce_%x_%d_%d(void) {}\n", time.Now().UnixNano(), os.Getpid(), nonceSeq.Add(1))
	}
	p, _, err := build(src, opts)
	if err != nil {
		return nil, err
	}
	defer p.Release()
	k, err := p.CreateKernel(kernel)
	if err != nil {
		return nil, fmt.Errorf("kernel resources of %s: %w", kernel, err)
	}
	defer k.Release()
	wg, err := k.WorkGroupInfo(dev.CL)
	if err != nil {
		return nil, fmt.Errorf("kernel resources of %s: %w", kernel, err)
	}
	r := &results.Resources{
		WorkGroupSizeLimit: wg.MaxSize, PreferredMultiple: wg.PreferredMultiple,
		LocalMemBytes: wg.LocalMemBytes, PrivateMemBytes: wg.PrivateMemBytes,
		CompileWorkGroupSize: wg.CompileSize,
	}
	applyLog(r, ParsePtxas(p.BuildLog(dev.CL)), kernel, nv)
	if r.LocalMemBytes == 0 && localDecl.MatchString(src.Text) {
		// PoCL 5 reports no local memory for a kernel's own __local arrays
		// (PoCL 3 did): a zero then says nothing of what the kernel takes.
		r.Note += "; the driver reports 0 bytes of local memory for a source that declares __local arrays: it does not count them"
	}
	return r, nil
}

// localDecl finds a __local (or local) array declared in a kernel's body.
var localDecl = regexp.MustCompile(`(?m)^\s*(__)?local\s+[A-Za-z_][A-Za-z0-9_]*\s+[A-Za-z_][A-Za-z0-9_]*\s*\[`)

// applyLog sets r's registers and spills from a parsed build log.
func applyLog(r *results.Resources, usage map[string]PtxasUsage, kernel string, nv bool) {
	u, ok := usage[kernel]
	if !ok && len(usage) == 1 {
		u, ok = usage[""]
	}
	switch {
	case ok && u.HasRegisters:
		regs := u.Registers
		r.Registers = &regs
		if u.HasSpillCounts {
			st, ld := u.SpillStores, u.SpillLoads
			r.SpillStoresBytes, r.SpillLoadsBytes = &st, &ld
		}
		r.Note = "registers and spills from ptxas (" + NVVerbose + ")"
	case nv:
		r.Note = "the build log with " + NVVerbose + " named no registers for " + kernel
	default:
		r.Note = "the driver does not report registers or spills (only NVIDIA's " + NVVerbose + " does)"
	}
}

// ResourcesText writes r in one line for 'run -v'.
func ResourcesText(r *results.Resources) string {
	var b strings.Builder
	fmt.Fprintf(&b, "work-group limit %d (preferred multiple %d), local memory %s, private memory %s",
		r.WorkGroupSizeLimit, r.PreferredMultiple, bytesText(r.LocalMemBytes), bytesText(r.PrivateMemBytes))
	if len(r.CompileWorkGroupSize) > 0 {
		fmt.Fprintf(&b, ", reqd_work_group_size %v", r.CompileWorkGroupSize)
	}
	if r.Registers != nil {
		fmt.Fprintf(&b, ", %d registers", *r.Registers)
		if r.SpillStoresBytes != nil {
			fmt.Fprintf(&b, ", spills %d B stored / %d B loaded", *r.SpillStoresBytes, *r.SpillLoadsBytes)
		}
	} else if r.Note != "" {
		b.WriteString("; " + r.Note)
	}
	return b.String()
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.4g MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.4g KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
