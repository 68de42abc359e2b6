package runtime

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Source is an OpenCL C program's text and where it came from.
type Source struct {
	// Name is the file path or the built-in's name, for messages.
	Name string
	// Text is the OpenCL C source.
	Text string
	// Dir is the folder #include "..." lines are searched in besides -I options
	// (the source file's folder; "" for built-ins).
	Dir string
}

// BuildInfo says how a program was made and what it cost.
type BuildInfo struct {
	// FromCache is true when the program came from clmeter's binary cache.
	FromCache bool `json:"from_cache"`
	// Create and Build are the times of clCreateProgramWith{Source,Binary} and
	// clBuildProgram; Total includes the cache's own work.
	Create time.Duration `json:"create_ns"`
	Build  time.Duration `json:"build_ns"`
	Total  time.Duration `json:"total_ns"`
	// Ahead is how long the cache's lookup took when it was done ahead, while
	// the device's context was made (Device.PrefetchProgram): not in Total.
	Ahead time.Duration `json:"ahead_ns,omitempty"`
	// CacheNote says what the cache did: "hit", "miss", "disabled" (no cache),
	// "rejected: checksum mismatch", ...
	CacheNote string `json:"cache_note,omitempty"`
	Options   string `json:"options"`
	// DriverOutput is what the driver printed to stderr during the build
	// (compiler warnings), kept off the terminal (cl.Program.DriverOutput).
	DriverOutput string `json:"driver_output,omitempty"`
}

// ProgramCache builds programs through a binary cache. Package runtime/cache's Cache implements
// it; the Manager's Cache field holds one.
type ProgramCache interface {
	BuildProgram(d *Device, src Source, options string) (*cl.Program, BuildInfo, error)
}

// programPrefetcher is a ProgramCache that can start a build's lookup ahead
// (runtime/cache: the key, the read of the entry and its checks).
type programPrefetcher interface {
	Prefetch(d *Device, src Source, options string)
}

// PrefetchProgram starts the program cache's lookup of src built with options
// on another goroutine when d's context is still to be made, so that it runs
// while the driver makes the context: BuildProgram with the same src and
// options then takes its result instead of doing the lookup on the build's
// path. It does nothing without a cache or once the context is made.
func (d *Device) PrefetchProgram(src Source, options string) {
	if d.ctxMade.Load() {
		return
	}
	if p, ok := d.mgr.cache().(programPrefetcher); ok {
		p.Prefetch(d, src, options)
	}
}

// BuildProgram makes and builds a program for the device, through the Manager's
// cache when it has one. A failed build returns an error holding the build log.
func (d *Device) BuildProgram(src Source, options string) (*cl.Program, BuildInfo, error) {
	if d.mgr != nil && d.mgr.Cache != nil {
		return d.mgr.Cache.BuildProgram(d, src, options)
	}
	return d.BuildFromSource(src, options)
}

// trimAfter is the build time past which a source build is taken to have run
// the driver's compiler in the process.
const trimAfter = 20 * time.Millisecond

// BuildFromSource makes and builds a program from source, bypassing any cache.
func (d *Device) BuildFromSource(src Source, options string) (*cl.Program, BuildInfo, error) {
	info := BuildInfo{Options: options, CacheNote: "disabled"}
	ctx, _, err := d.Context()
	if err != nil {
		return nil, info, err
	}
	start := time.Now()
	locked := lockBuildAhead(d, []byte(src.Text), options)
	p, err := ctx.CreateProgramWithSource(src.Text)
	info.Create = time.Since(start)
	if err != nil {
		locked.drop()
		return nil, info, fmt.Errorf("%s: %w", src.Name, err)
	}
	t := time.Now()
	unlock := locked.wait()
	err = p.Build(options, d.CL)
	unlock()
	if err != nil {
		p.Release()
		var ce *cl.Error
		if errors.As(err, &ce) && ce.Log != "" {
			ce.Log = mapDriverFileNames(ce.Log, src.Name)
		}
		return nil, info, fmt.Errorf("%s: %w", src.Name, err)
	}
	info.Build = time.Since(t)
	info.DriverOutput = mapDriverFileNames(p.DriverOutput, src.Name)
	info.Total = time.Since(start)
	// After the timing, and only after a build long enough to have compiled
	// (a driver that finds the program in its own cache takes a few ms): what
	// the compiler freed goes back to the system. malloc_trim took 0.9 ms
	// after a cold PoCL build, 0.24 ms after a warm one.
	if info.Build > trimAfter {
		cl.TrimHeap()
	}
	return p, info, nil
}

// BuildFromBinary makes and builds a program from the device's binary.
func (d *Device) BuildFromBinary(binary []byte, options string) (*cl.Program, BuildInfo, error) {
	info := BuildInfo{Options: options}
	ctx, _, err := d.Context()
	if err != nil {
		return nil, info, err
	}
	start := time.Now()
	locked := lockBuildAhead(d, binary, options)
	p, status, err := ctx.CreateProgramWithBinary([]*cl.Device{d.CL}, [][]byte{binary})
	info.Create = time.Since(start)
	if err == nil && len(status) == 1 && status[0] != nil {
		err = status[0]
	}
	if err != nil {
		locked.drop()
		if p != nil {
			p.Release()
		}
		return nil, info, err
	}
	t := time.Now()
	unlock := locked.wait()
	err = p.Build(options, d.CL)
	unlock()
	if err != nil {
		p.Release()
		return nil, info, err
	}
	info.Build = time.Since(t)
	info.DriverOutput = p.DriverOutput
	info.Total = time.Since(start)
	return p, info, nil
}

// driverFileName matches the name a driver gives the source it compiles in
// its messages: PoCL's .../kcache/.../tempfile_*.cl, Oclgrind's input.cl,
// NVIDIA's <kernel> and <source>, followed by :LINE.
var driverFileName = regexp.MustCompile(`(?m)(^|[\s'"])(?:[^\s:'"]*/)?(?:tempfile[^\s:/'"]*\.cl|input\.cl|<kernel>|<source>|program_source)(:\d+)`)

// mapDriverFileNames puts the user's file name where a build log names the
// driver's copy of the source.
func mapDriverFileNames(log, name string) string {
	if log == "" || name == "" {
		return log
	}
	return driverFileName.ReplaceAllString(log, "${1}"+strings.ReplaceAll(name, "$", "$$")+"${2}")
}
