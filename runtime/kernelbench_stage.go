package runtime

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/runtime/cl"
)

// stageBytes is the most host memory the phases of a benchmark with a
// regenerated input (Arg.Regen) move a buffer through: copy-in and copy-out
// go in pieces of at most this many bytes, from and to host memory that is
// not the device's, so they time what a full host copy would move.
var stageBytes int64 = 64 << 20

// A stager is a lean benchmark's staging buffer for the phases (stage).
type stager struct {
	buf []byte
	// holds says what buf holds: stageZeros, stageDirty (an output read
	// back), or i+1: the first bytes of input i's contents, its Init's.
	holds int
	// prep is the time spent refilling buf since the phases began: no
	// phase's (RunPhases takes it out of copy-in).
	prep time.Duration
}

const (
	stageZeros = 0
	stageDirty = -1
)

// stage returns the phases' staging buffer, made on first use: the largest
// buffer's bytes up to stageBytes, zero.
func (b *KernelBenchmark) stage() []byte {
	if b.st.buf == nil {
		var n int64
		for _, a := range b.Args {
			if a.Kind == ArgBuffer {
				n = max(n, min(a.Bytes, stageBytes))
			}
		}
		b.st.buf, b.st.holds = hostBuffer(n), stageZeros
	}
	return b.st.buf
}

// stageFor returns the staging buffer holding what buffer i starts with:
// its Init's first bytes, or zeros. Each piece of the copy-in repeats them,
// so the launch the phases time after their copy-in reads values of the
// buffer's own kind (a user's index buffer gets indices in its range, never
// another argument's float bits). A refill is timed into stager.prep.
func (b *KernelBenchmark) stageFor(i int) []byte {
	st, a := b.stage(), b.Args[i]
	want := stageZeros
	if a.Init != nil {
		want = i + 1
	}
	if b.st.holds != want {
		t := time.Now()
		if a.Init != nil {
			a.Init(st[:min(int64(len(st)), a.Bytes)])
		} else {
			clear(st)
		}
		b.st.holds = want
		b.st.prep += time.Since(t)
	}
	return st
}

// stagedCopy moves buffer i's bytes from (read false) or into (read true)
// the staging buffer, a piece at a time, each piece a blocking command.
func (b *KernelBenchmark) stagedCopy(i int, read bool) error {
	st, a := b.stage(), b.Args[i]
	if read {
		b.st.holds = stageDirty
	} else {
		st = b.stageFor(i)
	}
	for off := int64(0); off < a.Bytes; off += int64(len(st)) {
		piece := st[:min(int64(len(st)), a.Bytes-off)]
		var ev *cl.Event
		var err error
		if read {
			ev, err = b.queue.EnqueueReadBuffer(b.bufs[i], true, off, piece)
		} else {
			ev, err = b.queue.EnqueueWriteBuffer(b.bufs[i], true, off, piece)
		}
		if err != nil {
			return fmt.Errorf("staged copy of buffer %s: %w", a.label(i), err)
		}
		ev.Release()
	}
	return nil
}

// copyIn is the phases' copy-in of buffer i: its host copy written, or, for a
// buffer without one, the same number of bytes moved through the staging
// buffer (stageFor).
func (b *KernelBenchmark) copyIn(i int) error {
	if b.noHostCopy(b.Args[i]) {
		return b.stagedCopy(i, false)
	}
	return b.write(i)
}

// copyOut is the phases' copy-out: every output read back, into kept host
// buffers or, when the benchmark is lean, through the staging buffer.
func (b *KernelBenchmark) copyOut() error {
	if !b.lean() {
		_, err := b.readOutputs()
		return err
	}
	for i, a := range b.Args {
		if a.Kind == ArgBuffer && a.Output {
			if err := b.stagedCopy(i, true); err != nil {
				return err
			}
		}
	}
	return nil
}
