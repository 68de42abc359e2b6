package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

func init() {
	register(&cli.Command{
		Name:  "devices",
		Usage: "list OpenCL platforms and devices with their key figures",
		Description: "Lists every device of every platform the ICD loader finds, with the index that\n" +
			"   --device takes. -v shows every figure; --format json is for programs (an empty list is []).",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show every figure of each device"},
			formatFlag("table", "json"),
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format, err := checkFormat(c, "table", "json")
			if err != nil {
				return err
			}
			return runDevices(c.Context, devicesOptions{Verbose: c.Bool("verbose"), Format: format}, c.App.Writer)
		},
	})
}

type devicesOptions struct {
	Verbose bool
	Format  string
}

// deviceJSON is one device in 'clmeter devices --format json'.
type deviceJSON struct {
	Index         int             `json:"index"`
	Ref           string          `json:"ref"`
	Platform      cl.PlatformInfo `json:"platform"`
	Device        cl.DeviceInfo   `json:"device"`
	EnumerationNS int64           `json:"enumeration_ns"`
}

func runDevices(ctx context.Context, opts devicesOptions, stdout io.Writer) error {
	m := runtime.NewManager()
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
		return writeJSON(stdout, out)
	}
	plats, _ := m.Platforms()
	fmt.Fprintf(stdout, "%d platform(s), %d device(s); enumeration took %s (loader %s)\n", len(plats), len(devs), m.EnumerationTime().Round(time.Microsecond), cl.LibraryPath())
	if len(devs) == 0 {
		fmt.Fprintln(stdout, "no OpenCL device found: run 'clmeter doctor' to see why")
		for _, h := range runtime.PlatformHints(plats, devs) {
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
			humanBytes(in.GlobalMemBytes), humanBytes(in.MaxAllocBytes), humanBytes(in.LocalMemBytes),
			zeroDash(in.TimerResolution, time.Duration.String), yesNo(in.FP64), strings.TrimPrefix(in.Version, "OpenCL "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, h := range runtime.PlatformHints(plats, devs) {
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

func writeDeviceVerbose(w io.Writer, d *runtime.Device) {
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
		{"global memory", fmt.Sprintf("%s (%d bytes)", humanBytes(in.GlobalMemBytes), in.GlobalMemBytes)},
		{"global cache", fmt.Sprintf("%s, %d-byte lines", humanBytes(in.GlobalCacheBytes), in.GlobalCacheLineSize)},
		{"max allocation", humanBytes(in.MaxAllocBytes)},
		{"local memory", humanBytes(in.LocalMemBytes)},
		{"constant memory", humanBytes(in.ConstantMemBytes)},
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
