package runner

import (
	"context"
	"io"

	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/runtime"
)

// rerunIsolated reruns the command in a child process (child, from the
// command's options) when a selected device's driver may crash the process
// (runtime.CrashRisk), so that a crash ends as one line from this process.
// It reports whether it did; the error is the child's. Nothing happens in the
// child itself, or without a child command.
func rerunIsolated(ctx context.Context, child []string, devs []*runtime.Device, stdout, stderr io.Writer) (bool, error) {
	if len(child) == 0 || isolate.Active() {
		return false, nil
	}
	for _, d := range devs {
		if driver, fix := runtime.CrashRisk(d); driver != "" {
			return true, isolate.Run(ctx, isolate.Options{Command: child, Driver: driver, Fix: fix}, stdout, stderr)
		}
	}
	return false, nil
}

// planDevices are the devices of a plan's items.
func planDevices(p *runPlan) []*runtime.Device {
	var devs []*runtime.Device
	for _, it := range p.items {
		if d, ok := it.device.(*runtime.Device); ok {
			devs = append(devs, d)
		}
	}
	return devs
}
