package clkernels

import (
	"fmt"
	"math"

	"github.com/clmeter/clmeter/runtime"
)

// ImageSupported reports whether the device reads images.
func ImageSupported(dev *runtime.Device) bool { return dev.Info.ImageSupport }

// Image walks: the orders ImageBandwidthBenchmark reads an image in.
const (
	// ImageLinear: a grid-stride walk over the row-major texel index.
	ImageLinear = "linear"
	// ImageTile: 2D work-groups, each reading a 2D block of texels at a time.
	ImageTile = "tile"
	// ImageChunk: each work-item reads its own run of texels (CPUs).
	ImageChunk = "chunk"
)

// ImageWalks are the walks the peaks suite races; the best is the peak.
var ImageWalks = []string{ImageLinear, ImageTile, ImageChunk}

// ImageBandwidthBenchmark reads a 2D image of RGBA float texels (about bytes
// of them, 4096 texels a row or the device's widest power of two below that,
// capped by the device's largest 2D image) with read_imagef, every texel once,
// in the given walk (clpeak's "image bandwidth"). Bytes count the texels read
// and each work-item's one float written. The check compares a spread of
// work-items' sums with the CPU's.
func ImageBandwidthBenchmark(dev *runtime.Device, bytes int64, walk string) (*runtime.KernelBenchmark, error) {
	if !ImageSupported(dev) {
		return nil, fmt.Errorf("device %s has no image support (CL_DEVICE_IMAGE_SUPPORT)", dev.Info.Name)
	}
	if walk != ImageLinear && walk != ImageTile && walk != ImageChunk {
		return nil, fmt.Errorf("image walk %q: want %s, %s or %s", walk, ImageLinear, ImageTile, ImageChunk)
	}
	wshift := 12 // 4096 texels a row
	for m := dev.Info.Image2DMaxSize[0]; m > 0 && wshift > 0 && 1<<wshift > m; {
		wshift--
	}
	width := 1 << wshift
	height := int(bytes / 16 / int64(width))
	if m := dev.Info.Image2DMaxSize[1]; m > 0 && height > m {
		height = m
	}
	height = max(height, 1)
	texels := int64(width) * int64(height)
	if texels >= 1<<31 { // the kernels' texel index is a 32-bit uint
		height = int((1<<31 - 1) / int64(width))
		texels = int64(width) * int64(height)
	}
	if err := fits(dev, texels*16, 1); err != nil {
		return nil, err
	}
	const seed = 9 // the texels' (the check regenerates them: no host copy is kept)
	img := runtime.Arg{Kind: runtime.ArgImage2D, Name: "img", Bytes: texels * 16, Width: width, Height: height, InitAt: fillUniformAt(tFloat, seed, 0, 1)}
	kb := &runtime.KernelBenchmark{Device: dev, Source: source("peaks.cl"), Options: "-DT=float", Traffic: "read-only"}
	// item(i) lists the texels work-item i (by its output index) sums.
	var items int64
	var item func(i int64, each func(t int64))
	switch walk {
	case ImageLinear:
		global, local := workItems(dev)
		if int64(global) > texels {
			global, local = int(texels), 1
		}
		items = int64(global)
		kb.Kernel, kb.Global, kb.Local = "image_bandwidth", []int{global}, []int{local}
		kb.Args = []runtime.Arg{img,
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: items * 4, Output: true},
			{Kind: runtime.ArgScalar, Name: "wshift", Value: uint32(wshift)},
			{Kind: runtime.ArgScalar, Name: "texels", Value: uint32(texels)}}
		item = func(i int64, each func(t int64)) {
			for t := i; t < texels; t += items {
				each(t)
			}
		}
	case ImageChunk:
		global, local := workItems(dev)
		if int64(global) > texels {
			global, local = int(texels), 1
		}
		items = int64(global)
		per := (texels + items - 1) / items
		kb.Kernel, kb.Global, kb.Local = "image_bandwidth_chunk", []int{global}, []int{local}
		kb.Args = []runtime.Arg{img,
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: items * 4, Output: true},
			{Kind: runtime.ArgScalar, Name: "wshift", Value: uint32(wshift)},
			{Kind: runtime.ArgScalar, Name: "texels", Value: uint32(texels)},
			{Kind: runtime.ArgScalar, Name: "per", Value: uint32(per)}}
		item = func(i int64, each func(t int64)) {
			for t := i * per; t < min((i+1)*per, texels); t++ {
				each(t)
			}
		}
	case ImageTile:
		// As many work-items as the linear walk, in rows of the image's width:
		// a power of two of rows, at most the image's height.
		global, _ := workItems(dev)
		rows := 1
		for rows*2*width <= global && rows*2 <= height {
			rows *= 2
		}
		lx, ly := 16, 16
		if m := dev.Info.MaxWorkGroupSize; m > 0 && m < lx*ly {
			lx, ly = 1, 1
		}
		lx, ly = min(lx, width), min(ly, rows)
		items = int64(width) * int64(rows)
		kb.Kernel, kb.Global, kb.Local = "image_bandwidth_tile", []int{width, rows}, []int{lx, ly}
		kb.Args = []runtime.Arg{img,
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: items * 4, Output: true},
			{Kind: runtime.ArgScalar, Name: "height", Value: uint32(height)}}
		item = func(i int64, each func(t int64)) {
			x, y0 := i%int64(width), i/int64(width)
			for y := y0; y < int64(height); y += int64(rows) {
				each(y*int64(width) + x)
			}
		}
	}
	kb.BytesPerLaunch = texels*16 + items*4
	kb.Check = func(_, out map[int][]byte) error {
		for _, i := range spread(items, 33) {
			var want float64
			item(i, func(t int64) {
				for c := int64(0); c < 4; c++ {
					want += uniformAt(tFloat, seed, 0, 1, 4*t+c)
				}
			})
			if got := tFloat.get(out[1], i); math.Abs(got-want) > 1e-4*math.Abs(want)+1e-3 {
				return fmt.Errorf("image bandwidth (%s walk): work-item %d summed %g, CPU %g", walk, i, got, want)
			}
		}
		return nil
	}
	return kb, nil
}
