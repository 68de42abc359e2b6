package check

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"strings"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/target"
)

// childMsg is one JSON line the child writes: its plan before the launch, then
// how it went. A crash leaves the plan without the outcome.
type childMsg struct {
	Plan *childPlan `json:"plan,omitempty"`
	// FirstBuffer is Oclgrind's number for the first buffer argument (see
	// firstArgBuffer), sent after setup.
	FirstBuffer int        `json:"first_buffer,omitempty"`
	Done        *childDone `json:"done,omitempty"`
}

// childPlan is the benchmark the child made: what the parent needs to put
// Oclgrind's reports in the user's terms.
type childPlan struct {
	Device   string    `json:"device"`
	Platform string    `json:"platform"`
	Kernel   string    `json:"kernel"`
	Source   string    `json:"source"`
	Text     string    `json:"text"`
	Dir      string    `json:"dir,omitempty"`
	Options  string    `json:"options,omitempty"`
	Global   []int     `json:"global"`
	Local    []int     `json:"local,omitempty"`
	Args     []planArg `json:"args"`
	// FirstBuffer is Oclgrind's number for the first buffer argument, 0 when
	// unknown (the parent sets it from the child's message).
	FirstBuffer int `json:"-"`
}

type planArg struct {
	Index int    `json:"index"`
	Kind  string `json:"kind"` // buffer, local, value
	Name  string `json:"name"`
	Bytes int64  `json:"bytes,omitempty"`
	// Elem and ElemBytes are the element type, when known ("float", 4).
	Elem      string `json:"elem,omitempty"`
	ElemBytes int    `json:"elem_bytes,omitempty"`
}

// childDone is the outcome: Error when the benchmark could not be set up or
// launched (Stage says which), WrongOutput when its output check failed.
type childDone struct {
	Stage       string `json:"stage,omitempty"`
	Error       string `json:"error,omitempty"`
	WrongOutput string `json:"wrong_output,omitempty"`
}

// Child is the child process's side of a check. It reads a Config (JSON) from
// stdin, makes the benchmark 'clmeter run' would make on the first device the
// ICD loader offers (the parent's private vendor folder holds only Oclgrind),
// writes its plan as a JSON line to stdout, then launches the kernel exactly
// once: every buffer is written, the kernel runs, the outputs are read back and
// checked when the benchmark has a check. A second line says how it went. Only
// a failure to write to stdout is returned as an error.
func Child(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	// Every OpenCL call from one OS thread: Oclgrind's uninitialized-value
	// tracking keeps per-thread state, and a host write from a thread it has
	// not seen crashes it (SIGSEGV in clEnqueueWriteBuffer); Go moves
	// goroutines between threads unless told not to.
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	enc := json.NewEncoder(stdout)
	fail := func(stage string, err error) error {
		return enc.Encode(childMsg{Done: &childDone{Stage: stage, Error: err.Error()}})
	}
	var cfg Config
	if err := json.NewDecoder(stdin).Decode(&cfg); err != nil {
		return fail("config", fmt.Errorf("reading the configuration: %w", err))
	}
	m := runtime.NewManager()
	defer m.Close()
	devs, err := m.Select("0")
	if err != nil {
		return fail("device", err)
	}
	dev := devs[0]
	if !strings.Contains(strings.ToLower(dev.Platform.Name), "oclgrind") {
		return fail("device", fmt.Errorf("the ICD loader offered %s (%s), not Oclgrind: the private vendor folder was not used", dev.Info.Name, dev.Platform.Name))
	}
	kb, types, err := makeBenchmark(cfg, dev)
	if err != nil {
		return fail("setup", err)
	}
	plan := newChildPlan(dev, kb, types)
	if err := enc.Encode(childMsg{Plan: plan}); err != nil {
		return err
	}
	// Exactly one launch: every buffer written, the kernel run, the outputs
	// read back and checked when the benchmark has a check (a built-in's CPU
	// reference, a spec file's expect).
	kb.NoDataWarmup = true
	kb.HostOnly = true
	if _, err := kb.Setup(ctx); err != nil {
		kb.Teardown()
		return fail("setup", err)
	}
	if err := sendFirstBuffer(enc, dev, kb); err != nil {
		return err
	}
	done := &childDone{}
	if check := kb.Check; check != nil {
		// The check's own verdict is told apart from a failed launch.
		var wrong error
		kb.Check = func(in, out map[int][]byte) error { wrong = check(in, out); return wrong }
		if err := kb.Validate(ctx); wrong != nil {
			done.WrongOutput = wrong.Error()
		} else if err != nil {
			done.Stage, done.Error = "launch", err.Error()
		}
	} else if _, err := kb.RunPhases(ctx); err != nil {
		done.Stage, done.Error = "launch", err.Error()
	}
	kb.Teardown()
	return enc.Encode(childMsg{Done: done})
}

// newChildPlan is the plan a child writes before its launch: the device, the
// kernel, its sizes and each argument, with its element type where known.
func newChildPlan(dev *runtime.Device, kb *runtime.KernelBenchmark, types []spec.ElemType) *childPlan {
	plan := &childPlan{Device: dev.Info.Name, Platform: dev.Platform.Name + " " + dev.Platform.Version, Kernel: kb.Kernel,
		Source: kb.Source.Name, Text: kb.Source.Text, Dir: kb.Source.Dir, Options: kb.Options, Global: kb.Global, Local: kb.Local}
	for i, a := range kb.Args {
		pa := planArg{Index: i, Name: a.Name, Bytes: a.Bytes}
		if i < len(types) && types[i].Size() > 0 {
			pa.Elem, pa.ElemBytes = types[i].Name, types[i].Size()
		}
		switch a.Kind {
		case runtime.ArgBuffer:
			pa.Kind = "buffer"
		case runtime.ArgLocal:
			pa.Kind = "local"
		default:
			pa.Kind, pa.Bytes = "value", 0
		}
		plan.Args = append(plan.Args, pa)
	}
	return plan
}

// sendFirstBuffer writes the number of the first of kb's buffers: without it,
// findings name addresses but not arguments. Only a failed write is an error.
func sendFirstBuffer(enc *json.Encoder, dev *runtime.Device, kb *runtime.KernelBenchmark) error {
	nbuf := 0
	for _, a := range kb.Args {
		if a.Kind == runtime.ArgBuffer {
			nbuf++
		}
	}
	if nbuf > 0 {
		if first, err := firstArgBuffer(dev, nbuf); err == nil {
			if err := enc.Encode(childMsg{FirstBuffer: first}); err != nil {
				return err
			}
		}
	}
	return nil
}

// makeBenchmark makes the KernelBenchmark of a configuration on dev, as 'clmeter
// run' does: its target resolved again through package target, with each
// argument's element type where it is known.
func makeBenchmark(cfg Config, dev *runtime.Device) (*runtime.KernelBenchmark, []spec.ElemType, error) {
	t, err := target.Resolve(cfg.Target, cfg.Flags, target.Defaults{N: DefaultSize})
	if err != nil {
		return nil, nil, err
	}
	var types []spec.ElemType
	if t.IsBuiltin {
		kb, err := t.Builtin.Make(dev, cfg.N)
		if err != nil {
			return nil, nil, err
		}
		// A built-in's buffers hold its element type.
		if et, err := spec.ParseType(t.Builtin.Type); err == nil {
			for range kb.Args {
				types = append(types, et)
			}
		}
		return kb, types, nil
	}
	for _, a := range t.Kernel.Args {
		types = append(types, a.Type)
	}
	kb, err := t.Kernel.Benchmark(dev, cfg.instance())
	return kb, types, err
}
