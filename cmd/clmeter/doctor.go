package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/doctor"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

func init() {
	register(&cli.Command{
		Name:  "doctor",
		Usage: "diagnose the OpenCL setup and print the fix for what is wrong",
		Description: "Checks the ICD loader, the vendor files (OCL_ICD_VENDORS or /etc/OpenCL/vendors) and\n" +
			"   OCL_ICD_FILENAMES: each library is ok when it loads and a platform came from it. Finds\n" +
			"   vendor libraries installed (ldconfig, LD_LIBRARY_PATH, driver folders) whose platform\n" +
			"   is missing, then builds and runs a tiny kernel on every device. Known problems come\n" +
			"   with the exact fix. Exit status 4 when no device is usable.",
		Flags: []cli.Flag{formatFlag("text", "json")},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			return runDoctor(c.Context, format, c.App.Writer)
		},
	})
}

func runDoctor(ctx context.Context, format string, stdout io.Writer) error {
	d := doctor.Diagnose(doctor.Options{OclgrindICD: env.oclgrindICD(), CacheDir: env.cacheDir(), CacheForce: env.cacheForce(),
		EnumerateChild: enumerateChildCommand()})
	if format == "json" {
		if err := writeJSON(stdout, d); err != nil {
			return err
		}
	} else {
		// Each line fitted to the terminal, wrapped under its own text.
		var buf bytes.Buffer
		writeDiagnosis(&buf, d)
		io.WriteString(stdout, table.FitEachLine(buf.String(), table.Width(stdout)))
	}
	if d.UsableDevices == 0 {
		return fail.With(fail.NoDevice, fmt.Errorf("no usable OpenCL device: see the fixes above"))
	}
	return nil
}

func mark(ok bool) string {
	if ok {
		return "ok  "
	}
	return "FAIL"
}

func writeDiagnosis(w io.Writer, d *doctor.Diagnosis) {
	fmt.Fprintln(w, "ICD loader")
	if d.LoaderErr != "" {
		fmt.Fprintf(w, "  FAIL %s\n", d.LoaderErr)
	} else {
		fmt.Fprintf(w, "  ok   %s\n", d.Loader)
	}
	fmt.Fprintln(w, "Vendor files")
	for _, dir := range d.VendorDirs {
		fmt.Fprintf(w, "  %s (%s)\n", dir.Path, dir.Source)
		if dir.Err != "" {
			fmt.Fprintf(w, "    FAIL %s\n", dir.Err)
		}
		if len(dir.Files) == 0 && dir.Err == "" {
			fmt.Fprintln(w, "    (no .icd files)")
		}
		for _, f := range dir.Files {
			fmt.Fprintf(w, "    %s %s", mark(f.OK), f.Path)
			if f.Library != "" {
				fmt.Fprintf(w, " -> %s", f.Library)
			}
			if f.Problem != "" && f.Library == "" {
				fmt.Fprintf(w, " %s", f.Problem)
			} else if f.Problem != "" {
				fmt.Fprintf(w, ": %s", f.Problem)
			} else {
				fmt.Fprintf(w, " (%s)", units.Count(f.Platforms, "platform"))
			}
			fmt.Fprintln(w)
		}
	}
	for _, f := range d.ICDFilenames {
		fmt.Fprintf(w, "  %s OCL_ICD_FILENAMES %s %s\n", mark(f.OK), f.Library, f.Problem)
	}
	if d.EnumerationErr != "" {
		fmt.Fprintf(w, "Platforms and devices\n  FAIL not listed: %s\n", d.EnumerationErr)
	} else if d.LoaderErr == "" {
		fmt.Fprintf(w, "Platforms and devices (enumeration %s)\n", d.EnumerationTime.Round(time.Microsecond))
		if len(d.Platforms) == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		for _, p := range d.Platforms {
			fmt.Fprintf(w, "  %s (%s), %s\n", p.Name, p.Vendor, p.Version)
			if p.Err != "" {
				fmt.Fprintf(w, "    FAIL listing devices: %s\n", p.Err)
			}
			for _, dc := range p.Devices {
				fmt.Fprintf(w, "    %s %d (%s) %s [%s]", mark(dc.Usable), dc.Index, dc.Ref, dc.Name, dc.Type)
				if dc.Usable {
					fmt.Fprintf(w, ": context %s, test kernel built in %s and ran correctly", dc.Context.Round(time.Microsecond), dc.Build.Round(time.Microsecond))
				} else {
					fmt.Fprintf(w, ": %s", dc.Problem)
				}
				fmt.Fprintln(w)
				writeDoctorTimer(w, dc)
				cache.WriteAdvice(w, "      ", dc.CachePolicy, dc.Savings)
			}
		}
	}
	writeOclgrind(w, d.Oclgrind)
	if len(d.Fixes) > 0 {
		fmt.Fprintln(w, "Fixes")
		for _, f := range d.Fixes {
			fmt.Fprintf(w, "  - %s\n", f)
		}
	}
	fmt.Fprintf(w, "%s\n", units.Count(d.UsableDevices, "usable device"))
}

// writeDoctorTimer prints, under a device of 'clmeter doctor', the timer its
// benchmarks get and its quirks.
func writeDoctorTimer(w io.Writer, dc doctor.DeviceCheck) {
	switch {
	case dc.Timer != nil && dc.Timer.Timer == measure.TimerDevice:
		c := dc.Timer.Check
		if c != nil {
			fmt.Fprintf(w, "         timer: device (event profiling); checked against the host clock: %d launches, %s by the device, %s by the host\n",
				c.Launches, units.Duration(c.Device), units.Duration(c.Host))
		} else {
			fmt.Fprintln(w, "         timer: device (event profiling)")
		}
	case dc.Timer != nil:
		fmt.Fprintf(w, "         timer: host (%s)\n", dc.Timer.Note)
	case dc.TimerProblem != "":
		fmt.Fprintf(w, "         timer: not checked: %s\n", dc.TimerProblem)
	}
	for _, q := range dc.Quirks {
		fmt.Fprintf(w, "         quirk: %s\n", q)
	}
}
