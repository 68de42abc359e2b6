package clkernels

import (
	"fmt"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
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

// imageSeed is the texels' seed: the check regenerates them (uniformAt),
// no host copy of them is kept.
const imageSeed = 9

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
	sh := imageShapeOf(dev, bytes)
	if err := fits(dev, sh.texels*16, 1); err != nil {
		return nil, err
	}
	img := runtime.Arg{Kind: runtime.ArgImage2D, Name: "img", Bytes: sh.texels * 16, Width: sh.width, Height: sh.height, InitAt: fillUniformAt(tFloat, imageSeed, 0, 1)}
	kb := &runtime.KernelBenchmark{Device: dev, Source: source("peaks.cl"), Options: "-DT=float", Traffic: "read-only"}
	var w imageWalk
	if walk == ImageTile {
		w = imageTiles(dev, kb, img, sh)
	} else {
		w = imageGrid(dev, kb, img, sh, walk == ImageChunk)
	}
	kb.BytesPerLaunch = sh.texels*16 + w.items*4
	kb.Check = func(in, out map[int][]byte) error {
		for _, i := range spread(w.items, 33) {
			var want float64
			w.item(i, func(t int64) {
				for c := int64(0); c < 4; c++ {
					want += uniformAt(tFloat, imageSeed, 0, 1, 4*t+c)
				}
			})
			if got := tFloat.get(out[1], i); !(spec.Tolerance{Abs: 1e-3, Rel: 1e-4}).Within(got, want) {
				return fmt.Errorf("image bandwidth (%s walk): work-item %d summed %g, CPU %g", walk, i, got, want)
			}
		}
		return nil
	}
	return kb, nil
}

// imageShape is the image an image bandwidth reads: width (1<<wshift) by
// height texels.
type imageShape struct {
	wshift, width, height int
	texels                int64
}

// imageShapeOf is the shape of an image of about bytes of RGBA float texels
// on dev: 4096 texels a row or the device's widest power of two below that,
// capped by the device's largest 2D image and a 32-bit texel index.
func imageShapeOf(dev *runtime.Device, bytes int64) imageShape {
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
	return imageShape{wshift: wshift, width: width, height: height, texels: texels}
}

// An imageWalk is the work-items of an image bandwidth's walk: item(i, each)
// calls each with every texel work-item i (by its output index) sums.
type imageWalk struct {
	items int64
	item  func(i int64, each func(t int64))
}

// imageGrid sets kb to the linear walk (a grid stride over the row-major
// texel index) or, with chunk, the chunk walk (each work-item its own run of
// texels), and returns it.
func imageGrid(dev *runtime.Device, kb *runtime.KernelBenchmark, img runtime.Arg, sh imageShape, chunk bool) imageWalk {
	global, local := workItems(dev)
	if int64(global) > sh.texels {
		global, local = int(sh.texels), 1
	}
	items, texels := int64(global), sh.texels
	kb.Global, kb.Local = []int{global}, []int{local}
	kb.Args = []runtime.Arg{img,
		{Kind: runtime.ArgBuffer, Name: "out", Bytes: items * 4, Output: true},
		{Kind: runtime.ArgScalar, Name: "wshift", Value: uint32(sh.wshift)},
		{Kind: runtime.ArgScalar, Name: "texels", Value: uint32(texels)}}
	if !chunk {
		kb.Kernel = "image_bandwidth"
		return imageWalk{items, func(i int64, each func(t int64)) {
			for t := i; t < texels; t += items {
				each(t)
			}
		}}
	}
	per := (texels + items - 1) / items
	kb.Kernel = "image_bandwidth_chunk"
	kb.Args = append(kb.Args, runtime.Arg{Kind: runtime.ArgScalar, Name: "per", Value: uint32(per)})
	return imageWalk{items, func(i int64, each func(t int64)) {
		for t := i * per; t < min((i+1)*per, texels); t++ {
			each(t)
		}
	}}
}

// imageTiles sets kb to the tile walk: as many work-items as the linear
// walk, in rows of the image's width (a power of two of rows, at most the
// image's height), in 2D work-groups; and returns it.
func imageTiles(dev *runtime.Device, kb *runtime.KernelBenchmark, img runtime.Arg, sh imageShape) imageWalk {
	global, _ := workItems(dev)
	width, height := sh.width, sh.height
	rows := 1
	for rows*2*width <= global && rows*2 <= height {
		rows *= 2
	}
	lx, ly := 16, 16
	if m := dev.Info.MaxWorkGroupSize; m > 0 && m < lx*ly {
		lx, ly = 1, 1
	}
	lx, ly = min(lx, width), min(ly, rows)
	items := int64(width) * int64(rows)
	kb.Kernel, kb.Global, kb.Local = "image_bandwidth_tile", []int{width, rows}, []int{lx, ly}
	kb.Args = []runtime.Arg{img,
		{Kind: runtime.ArgBuffer, Name: "out", Bytes: items * 4, Output: true},
		{Kind: runtime.ArgScalar, Name: "height", Value: uint32(height)}}
	return imageWalk{items, func(i int64, each func(t int64)) {
		x, y0 := i%int64(width), i/int64(width)
		for y := y0; y < int64(height); y += int64(rows) {
			each(y*int64(width) + x)
		}
	}}
}
