package profile

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// A Vectorisation says whether a CPU driver compiled a kernel to vector
// instructions across work-items, read from the machine code it made.
type Vectorisation struct {
	// Known is false when it could not be told; Why then says why.
	Known bool
	Why   string
	// Vectorised: the kernel's floating-point arithmetic is mostly packed
	// (Packed against Scalar instructions), Width lanes wide at most.
	Vectorised     bool
	Packed, Scalar int
	Width          int
	// From names the compiled code read.
	From string
}

// fpArith matches objdump's x86-64 floating-point arithmetic: the FMA
// family, add, sub, mul, div; packed (ps, pd) or scalar (ss, sd), and the
// widest register of the operands.
var fpArith = regexp.MustCompile(`\sv?(fn?m(?:add|sub)\d*|add|sub|mul|div)(ps|pd|ss|sd)\s+(.*)$`)

// CountVectorOps reads `objdump -d` output and counts the packed and scalar
// floating-point arithmetic instructions, with the widest packed vector in
// lanes of its element (ymm of floats: 8).
func CountVectorOps(disasm string) (packed, scalar, width int) {
	for _, line := range strings.Split(disasm, "\n") {
		m := fpArith.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[2] == "ss" || m[2] == "sd" {
			scalar++
			continue
		}
		packed++
		bits := 128
		switch {
		case strings.Contains(m[3], "%zmm"):
			bits = 512
		case strings.Contains(m[3], "%ymm"):
			bits = 256
		}
		elem := 32
		if m[2] == "pd" {
			elem = 64
		}
		width = max(width, bits/elem)
	}
	return packed, scalar, width
}

// PoCLVectorisation says whether PoCL vectorised kernel across work-items
// on dev: it reads the work-group function PoCL compiled for the kernel's
// local size (the newest in PoCL's kernel cache, POCL_CACHE_DIR or the user
// cache folder's pocl/kcache) with objdump. Another driver, a cache turned
// off (POCL_KERNEL_CACHE=0), no objdump: not Known, with why.
func PoCLVectorisation(ctx context.Context, dev *runtime.Device, kernel string, local []int) Vectorisation {
	if !strings.Contains(dev.Platform.Name, "Portable Computing Language") {
		return Vectorisation{Why: "the driver (" + dev.Platform.Name + ") does not say"}
	}
	if os.Getenv("POCL_KERNEL_CACHE") == "0" {
		return Vectorisation{Why: "PoCL's kernel cache is off (POCL_KERNEL_CACHE=0), so its compiled code cannot be read"}
	}
	so, err := poclKernelObject(kernel, local)
	if err != nil {
		return Vectorisation{Why: err.Error()}
	}
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		return Vectorisation{Why: "objdump (binutils) is not installed to read PoCL's compiled code"}
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, objdump, "-d", "--no-show-raw-insn", so).Output()
	if err != nil {
		return Vectorisation{Why: fmt.Sprintf("objdump could not read %s: %v", so, err)}
	}
	v := Vectorisation{Known: true, From: so}
	v.Packed, v.Scalar, v.Width = CountVectorOps(string(out))
	if v.Packed+v.Scalar == 0 {
		return Vectorisation{Why: "its compiled code does no floating-point arithmetic to judge by", From: so}
	}
	v.Vectorised = v.Packed >= v.Scalar
	return v
}

// poclKernelObject finds the newest work-group function PoCL compiled for
// kernel at local size local (any local size when it is not given):
// KCACHE/XX/HASH/KERNEL/LX-LY-LZ-.../KERNEL.so.
func poclKernelObject(kernel string, local []int) (string, error) {
	dir := os.Getenv("POCL_CACHE_DIR")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("PoCL's kernel cache cannot be found: %v", err)
		}
		dir = filepath.Join(base, "pocl", "kcache")
	}
	sizes := "*"
	if len(local) > 0 {
		l := []int{1, 1, 1}
		copy(l, local)
		sizes = fmt.Sprintf("%d-%d-%d-*", l[0], l[1], l[2])
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*", "*", kernel, sizes, kernel+".so"))
	best, bestTime := "", time.Time{}
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.ModTime().After(bestTime) {
			best, bestTime = m, fi.ModTime()
		}
	}
	if best == "" {
		return "", fmt.Errorf("PoCL's compiled code of %s is not in its kernel cache (%s)", kernel, dir)
	}
	return best, nil
}
