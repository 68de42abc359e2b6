package nvml

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/clmeter/clmeter/clocks/nvml/nvmltest"
)

// pciFields are the C names of PciInfo's fields, in nvmlPciInfo_t.
var pciFields = map[string]string{"BusIDLegacy": "busIdLegacy", "Domain": "domain", "Bus": "bus", "Device": "device",
	"PciDeviceID": "pciDeviceId", "PciSubSystemID": "pciSubSystemId", "BusID": "busId"}

// TestLayoutMatchesHeader compiles a C program against nvml.h (the excerpt in
// nvmltest's testdata) that prints the size and offsets of nvmlPciInfo_t and
// the values of the constants the binding declares, and compares each line
// with what Go says of its own.
func TestLayoutMatchesHeader(t *testing.T) {
	var c, want []string
	line := func(cExpr, format string, goValue any) {
		c = append(c, fmt.Sprintf("\tprintf(\"%s %s\\n\", %s);", cExpr, format, cExpr))
		want = append(want, fmt.Sprintf("%s %d", cExpr, goValue))
	}
	line("sizeof(nvmlPciInfo_t)", "%zu", unsafe.Sizeof(PciInfo{}))
	line("_Alignof(nvmlPciInfo_t)", "%zu", unsafe.Alignof(PciInfo{}))
	ty := reflect.TypeOf(PciInfo{})
	for i := 0; i < ty.NumField(); i++ {
		f := ty.Field(i)
		cf, ok := pciFields[f.Name]
		if !ok {
			t.Fatalf("PciInfo.%s has no field of nvmlPciInfo_t", f.Name)
		}
		line("offsetof(nvmlPciInfo_t, "+cf+")", "%zu", f.Offset)
		line("sizeof(((nvmlPciInfo_t *)0)->"+cf+")", "%zu", f.Type.Size())
	}
	line("sizeof(nvmlDevice_t)", "%zu", unsafe.Sizeof(uintptr(0)))
	line("sizeof(nvmlReturn_t)", "%zu", unsafe.Sizeof(Success))
	line("NVML_DEVICE_NAME_V2_BUFFER_SIZE", "%d", nameSize)
	for _, k := range []struct {
		c string
		v any
	}{{"NVML_SUCCESS", Success}, {"NVML_ERROR_UNINITIALIZED", ErrorUninitialized}, {"NVML_ERROR_NOT_SUPPORTED", ErrorNotSupported},
		{"NVML_CLOCK_SM", ClockSM}, {"NVML_CLOCK_MEM", ClockMem}, {"NVML_TEMPERATURE_GPU", TemperatureGPU}} {
		line(k.c, "%d", k.v)
	}
	for _, k := range []struct {
		c string
		v uint64
	}{{"nvmlClocksEventReasonGpuIdle", ClocksEventReasonGpuIdle}, {"nvmlClocksEventReasonSwPowerCap", ClocksEventReasonSwPowerCap},
		{"nvmlClocksThrottleReasonHwSlowdown", ClocksEventReasonHwSlowdown}, {"nvmlClocksEventReasonSyncBoost", ClocksEventReasonSyncBoost},
		{"nvmlClocksEventReasonSwThermalSlowdown", ClocksEventReasonSwThermalSlowdown},
		{"nvmlClocksThrottleReasonHwThermalSlowdown", ClocksEventReasonHwThermalSlowdown},
		{"nvmlClocksThrottleReasonHwPowerBrakeSlowdown", ClocksEventReasonHwPowerBrakeSlowdown}} {
		line(k.c, "%llu", k.v)
	}
	got := runC(t, "#include <stdio.h>\n#include <stddef.h>\n#include \"nvml.h\"\n\nint main(void) {\n"+strings.Join(c, "\n")+"\n\treturn 0;\n}\n")
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("nvml.h says:\n%s\nthe Go binding says:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// runC compiles and runs the C program src beside nvml.h and returns its
// output's lines.
func runC(t *testing.T, src string) []string {
	t.Helper()
	dir := nvmltest.Sources(t)
	if err := os.WriteFile(filepath.Join(dir, "layout.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	if out, err := exec.Command(nvmltest.CC(t), "-Wall", "-Werror", "-o", bin, filepath.Join(dir, "layout.c")).CombinedOutput(); err != nil {
		t.Fatalf("compiling:\n%s\n%v\n%s", src, err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
