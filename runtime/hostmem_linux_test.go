package runtime

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping that holds addr (/proc/self/smaps).
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Fields(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return nil
}

func has(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

// AdviseHuge marks the whole 2 MiB pages inside a slice that need not start
// on one (the mapping's "hg" flag), none outside it, and leaves a slice too
// short to hold one alone. Whether the system then gives huge pages depends on
// its free memory; the advice is what clmeter controls.
func TestAdviseHuge(t *testing.T) {
	const huge = 2 << 20
	m, err := syscall.Mmap(-1, 0, 4*huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	base := uintptr(unsafe.Pointer(&m[0]))
	first := (base + huge - 1) / huge * huge // the first 2 MiB boundary
	skip := int(first - base)
	if skip+2*huge > len(m) {
		t.Skip("the mapping holds fewer than two aligned huge pages")
	}
	AdviseHuge(m[skip+huge-100 : skip+huge+100]) // holds no whole huge page
	if has(vmFlags(t, first+huge), "hg") {
		t.Fatal("a slice holding no whole huge page was advised")
	}
	AdviseHuge(m[skip+1:]) // starts past a boundary: its first whole page is the next
	if has(vmFlags(t, first), "hg") {
		t.Error("the huge page the slice only partly holds was advised")
	}
	if !has(vmFlags(t, first+huge), "hg") {
		t.Errorf("the slice's first whole huge page is not advised: VmFlags %v", vmFlags(t, first+huge))
	}
	AdviseHuge(nil)
}
