package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// ListOptions are what 'clmeter devices' was asked to show.
type ListOptions struct {
	// Verbose shows every figure of each device.
	Verbose bool
	// Format is "table" or "json".
	Format string
	// Width is the width the table fits (table.Width); 0 is table.DefaultWidth.
	Width int
}

// deviceJSON is one device in 'clmeter devices --format json'.
type deviceJSON struct {
	Index         int             `json:"index"`
	Ref           string          `json:"ref"`
	Platform      cl.PlatformInfo `json:"platform"`
	Device        cl.DeviceInfo   `json:"device"`
	EnumerationNS int64           `json:"enumeration_ns"`
	// Host and Key are the device's host and key (results.DeviceKey);
	// KeyFallback says the key is the fallback of host, platform, name and
	// index.
	Host        string `json:"host"`
	Key         string `json:"key"`
	KeyFallback bool   `json:"key_fallback,omitempty"`
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
			di := d.Describe()
			out = append(out, deviceJSON{Index: d.Index, Ref: d.Ref(), Platform: d.Platform, Device: d.Info, EnumerationNS: m.EnumerationTime().Nanoseconds(),
				Host: di.Host, Key: di.Key, KeyFallback: di.KeyFallback})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	plats, _ := m.Platforms()
	width := cmp.Or(opts.Width, table.DefaultWidth)
	table.WriteWrapped(stdout, fmt.Sprintf("%s, %s; enumeration took %s (loader %s)", units.Count(len(plats), "platform"),
		units.Count(len(devs), "device"), m.EnumerationTime().Round(time.Microsecond), cl.LibraryPath()), width, "", "  ")
	if len(devs) == 0 {
		fmt.Fprintln(stdout, "no OpenCL device found: run 'clmeter doctor' to see why")
		writeHints(stdout, PlatformHints(plats, devs), width)
		return nil
	}
	if opts.Verbose {
		for _, d := range devs {
			writeDeviceVerbose(stdout, d)
		}
		return nil
	}
	writeDeviceTable(stdout, devs, width)
	writeHints(stdout, PlatformHints(plats, devs), width)
	return nil
}

// writeHints writes each platform hint as a "note:" line wrapped to width.
func writeHints(w io.Writer, hints []string, width int) {
	for _, h := range hints {
		table.WriteWrapped(w, "note: "+h, width, "", "      ")
	}
}

// writeDeviceTable writes one row per device fitted to width (the least
// telling columns go first), then each device's key, whole.
func writeDeviceTable(w io.Writer, devs []*Device, width int) {
	tb := table.New(table.Column{Header: "IDX"}, table.Column{Header: "P:D"}, table.Column{Header: "TYPE"},
		table.Column{Header: "NAME", Wrap: true}, table.Column{Header: "PLATFORM", Wrap: true},
		table.Column{Header: "CU", Right: true, Drop: 4}, table.Column{Header: "MHZ", Right: true, Drop: 6},
		table.Column{Header: "GLOBAL", Right: true, Drop: 3}, table.Column{Header: "MAX ALLOC", Short: "ALLOC", Right: true, Drop: 8},
		table.Column{Header: "LOCAL", Right: true, Drop: 7}, table.Column{Header: "TIMER", Drop: 9},
		table.Column{Header: "FP64", Drop: 5}, table.Column{Header: "OPENCL", Wrap: true, Drop: 10},
		table.Column{Header: "PCI", Drop: 2}, table.Column{Header: "UUID", Drop: 11})
	for _, d := range devs {
		in := d.Info
		tb.Row(fmt.Sprint(d.Index), d.Ref(), in.TypeName, in.Name, d.Platform.Name,
			fmt.Sprint(in.ComputeUnits), fmt.Sprint(in.MaxClockMHz), units.Bytes(in.GlobalMemBytes),
			units.Bytes(in.MaxAllocBytes), units.Bytes(in.LocalMemBytes), zeroDash(in.TimerResolution, time.Duration.String),
			yesNo(in.FP64), strings.TrimPrefix(in.Version, "OpenCL "), in.PCI, in.UUID)
	}
	tb.Write(w, width)
	fmt.Fprintln(w, "device keys (results, the store and history keep each device's series by it):")
	for _, d := range devs {
		di := d.Describe()
		text := d.Ref() + " " + di.Key
		if di.KeyFallback {
			text += " (fallback: no UUID or PCI address)"
		}
		table.WriteWrapped(w, text, width, "  ", "      ")
	}
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
		{"UUID", cmp.Or(in.UUID, "not reported")},
		{"PCI address", cmp.Or(in.PCI, "not reported")},
		{"key", deviceKeyText(d.Describe())},
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\t%s\n", r[0], r[1])
	}
	tw.Flush()
}

// deviceKeyText is a device's key, marked when it is the fallback.
func deviceKeyText(di results.DeviceInfo) string {
	if di.KeyFallback {
		return di.Key + " (fallback: no UUID or PCI address)"
	}
	return di.Key
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
