package harness

import (
	"context"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// Kernel is a runtime.KernelBenchmark as a Bench: Measurable sets its launch
// modes.
func Kernel(kb *runtime.KernelBenchmark) Bench { return kernelBench{kb} }

type kernelBench struct{ kb *runtime.KernelBenchmark }

func (k kernelBench) Measurable(m Modes, t measure.Timer) measure.Benchmark {
	kb := k.kb
	kb.HostOnly = t == measure.TimerHost
	kb.SyncEach = m.SyncEach
	kb.NoDataWarmup = m.NoDataWarmup
	kb.NoPhases = kb.NoPhases || m.NoPhases
	if m.Tracer != nil {
		kb.Tracer = m.Tracer
		return launchesOnly{kb.Measurable()}
	}
	return kb.Measurable()
}

func (k kernelBench) Program() *results.ProgramInfo {
	return k.kb.Build.ProgramInfo(k.kb.Source.Name)
}

func (k kernelBench) Sizes() (global, local []int) { return k.kb.Global, k.kb.Local }

// launchesOnly hides all but measure.Benchmark (and Abandon, and Flush for
// --cold): a traced run measures the launches only.
type launchesOnly struct{ b measure.Benchmark }

func (l launchesOnly) Setup(ctx context.Context) (measure.SetupInfo, error) { return l.b.Setup(ctx) }
func (l launchesOnly) Launch(ctx context.Context, k int) (measure.Batch, error) {
	return l.b.Launch(ctx, k)
}
func (l launchesOnly) Teardown() error { return l.b.Teardown() }
func (l launchesOnly) Flush(ctx context.Context) error {
	if f, ok := l.b.(measure.Flusher); ok {
		return f.Flush(ctx)
	}
	return nil
}
func (l launchesOnly) Abandon() {
	if a, ok := l.b.(measure.Abandoner); ok {
		a.Abandon()
	}
}

// Plain is a measure.Benchmark that has no launch modes of its own (a
// transfer, the launch-overhead benchmark) as a Bench; program, when set,
// gives its program after the measurement.
func Plain(b measure.Benchmark, program func() *results.ProgramInfo) Bench {
	return plainBench{b, program}
}

type plainBench struct {
	b       measure.Benchmark
	program func() *results.ProgramInfo
}

func (p plainBench) Measurable(Modes, measure.Timer) measure.Benchmark { return p.b }

func (p plainBench) Program() *results.ProgramInfo {
	if p.program == nil {
		return nil
	}
	return p.program()
}

func (p plainBench) Sizes() (global, local []int) { return nil, nil }
