package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/units"
)

// ListOptions are what 'clmeter devices' was asked to show.
type ListOptions struct {
	// Verbose shows every figure of each device.
	Verbose bool
	// Format is "table" or "json".
	Format string
}

// deviceJSON is one device in 'clmeter devices --format json'.
type deviceJSON struct {
	Index         int             `json:"index"`
	Ref           string          `json:"ref"`
	Platform      cl.PlatformInfo `json:"platform"`
	Device        cl.DeviceInfo   `json:"device"`
	EnumerationNS int64           `json:"enumeration_ns"`
}

// ListDevices enumerates the platforms and devices and writes them to stdout:
// a table with the index that --device takes, every figure with Verbose, or
// JSON (an empty list is []).
func ListDevices(ctx context.Context, opts ListOptions, stdout io.Writer) error {
	m := NewManager()
	defer m.Close()
	devs, err := m.Devices()
	if err != nil {
		return err
	}
	if opts.Format == "json" {
		out := make([]deviceJSON, 0, len(devs))
		for _, d := range devs {
			out = append(out, deviceJSON{Index: d.Index, Ref: d.Ref(), Platform: d.Platform, Device: d.Info, EnumerationNS: m.EnumerationTime().Nanoseconds()})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	plats, _ := m.Platforms()
	fmt.Fprintf(stdout, "%d platform(s), %d device(s); enumeration took %s (loader %s)\n", len(plats), len(devs), m.EnumerationTime().Round(time.Microsecond), cl.LibraryPath())
	if len(devs) == 0 {
		fmt.Fprintln(stdout, "no OpenCL device found: run 'clmeter doctor' to see why")
		for _, h := range PlatformHints(plats, devs) {
			fmt.Fprintln(stdout, "note: "+h)
		}
		return nil
	}
	if opts.Verbose {
		for _, d := range devs {
			writeDeviceVerbose(stdout, d)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "IDX\tP:D\tTYPE\tNAME\tPLATFORM\tCU\tMHZ\tGLOBAL\tMAX ALLOC\tLOCAL\tTIMER\tFP64\tOPENCL")
	for _, d := range devs {
		in := d.Info
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n",
			d.Index, d.Ref(), in.TypeName, in.Name, d.Platform.Name, in.ComputeUnits, in.MaxClockMHz,
			units.Bytes(in.GlobalMemBytes), units.Bytes(in.MaxAllocBytes), units.Bytes(in.LocalMemBytes),
			zeroDash(in.TimerResolution, time.Duration.String), yesNo(in.FP64), strings.TrimPrefix(in.Version, "OpenCL "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, h := range PlatformHints(plats, devs) {
		fmt.Fprintln(stdout, "note: "+h)
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeDeviceVerbose(w io.Writer, d *Device) {
	in := d.Info
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nDevice %d (%s)\t%s\n", d.Index, d.Ref(), in.Name)
	rows := [][2]string{
		{"platform", fmt.Sprintf("%s (%s), %s", d.Platform.Name, d.Platform.Vendor, d.Platform.Version)},
		{"vendor", fmt.Sprintf("%s (id 0x%x)", in.Vendor, in.VendorID)},
		{"type", in.TypeName},
		{"version", in.Version},
		{"driver version", in.DriverVersion},
		{"OpenCL C", in.OpenCLCVersion},
		{"available / compiler", yesNo(in.Available) + " / " + yesNo(in.CompilerAvailable)},
		{"compute units", fmt.Sprint(in.ComputeUnits)},
		{"max clock", fmt.Sprintf("%d MHz", in.MaxClockMHz)},
		{"address bits", fmt.Sprint(in.AddressBits)},
		{"global memory", fmt.Sprintf("%s (%d bytes)", units.Bytes(in.GlobalMemBytes), in.GlobalMemBytes)},
		{"global cache", cacheText(in.GlobalCacheBytes, in.GlobalCacheLineSize)},
		{"max allocation", units.Bytes(in.MaxAllocBytes)},
		{"local memory", units.Bytes(in.LocalMemBytes)},
		{"constant memory", units.Bytes(in.ConstantMemBytes)},
		{"max work-group size", fmt.Sprint(in.MaxWorkGroupSize)},
		{"max work-item sizes", fmt.Sprint(in.MaxWorkItemSizes)},
		{"fp16 / fp64", yesNo(in.FP16) + " / " + yesNo(in.FP64)},
		{"profiling timer resolution", in.TimerResolution.String()},
		{"host unified memory", yesNo(in.HostUnifiedMemory)},
		{"extensions", strings.Join(in.Extensions, " ")},
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\t%s\n", r[0], r[1])
	}
	tw.Flush()
}

// zeroDash writes "-" for a zero duration: a figure of 0 is never printed as a
// time.
func zeroDash(d time.Duration, f func(time.Duration) string) string {
	if d == 0 {
		return "-"
	}
	return f(d)
}

// cacheText writes the global cache's size and line, or says the driver
// reports none: never "0 B, 0-byte lines".
func cacheText(size int64, line int) string {
	switch {
	case size <= 0:
		return "none reported"
	case line <= 0:
		return units.Bytes(size) + ", line size not reported"
	}
	return fmt.Sprintf("%s, %d-byte lines", units.Bytes(size), line)
}
