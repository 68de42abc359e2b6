package spec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// ArgSyntax documents the kernel argument grammar for --help and the README.
const ArgSyntax = `one --arg per kernel argument, in order:
  buf:TYPE:COUNT[:INIT][:out]  a global buffer of COUNT elements of TYPE; INIT is zero
                               (default), rand, ones, seq (0,1,2,...) or a number;
                               :out marks a buffer the kernel writes (read back)
  local:TYPE:COUNT             __local memory for COUNT elements of TYPE
  TYPE:VALUE[,VALUE...]        a value: int:4096, float:2.5, float4:1,2,3,4
TYPE is char uchar short ushort int uint long ulong half float double, with an
optional vector width 2 3 4 8 16 (float4). COUNT and integer VALUEs are sizes
or expressions: 1Mi, 4K, 2^20, N*N (N is --size; a spec file adds its axes).`

// ArgKind says what an ArgSpec is.
type ArgKind int

// Argument kinds.
const (
	KindBuffer ArgKind = iota
	KindLocal
	KindValue
)

// An ArgSpec is one parsed --arg, its sizes still expressions.
type ArgSpec struct {
	Text   string
	Kind   ArgKind
	Type   ElemType
	Count  string   // buffer and local: element count expression
	Init   string   // buffer: zero, rand, ones, seq or a number
	Out    bool     // buffer: written by the kernel
	Values []string // value: one per lane, or one for all
}

// ParseArg parses one argument (see ArgSyntax).
func ParseArg(s string) (ArgSpec, error) {
	a := ArgSpec{Text: s}
	parts := strings.Split(s, ":")
	bad := func(format string, args ...any) (ArgSpec, error) {
		return ArgSpec{}, fmt.Errorf("--arg %q: %s", s, fmt.Sprintf(format, args...))
	}
	if len(parts) < 2 {
		return bad("want buf:TYPE:COUNT[:INIT][:out], local:TYPE:COUNT or TYPE:VALUE")
	}
	var err error
	switch strings.ToLower(parts[0]) {
	case "buf", "buffer":
		a.Kind = KindBuffer
		if len(parts) < 3 || len(parts) > 5 {
			return bad("a buffer is buf:TYPE:COUNT[:INIT][:out]")
		}
		if a.Type, err = ParseType(parts[1]); err != nil {
			return bad("%v", err)
		}
		a.Count, a.Init = parts[2], "zero"
		for _, p := range parts[3:] {
			switch lp := strings.ToLower(p); {
			case lp == "out":
				a.Out = true
			case lp == "in":
			case lp == "zero" || lp == "rand" || lp == "ones" || lp == "seq":
				a.Init = lp
			default:
				if _, err := strconv.ParseFloat(p, 64); err != nil {
					return bad("unknown buffer option %q: use zero, rand, ones, seq, a number, or out", p)
				}
				a.Init = p
			}
		}
		if strings.TrimSpace(a.Count) == "" {
			return bad("the element count is empty")
		}
	case "local":
		a.Kind = KindLocal
		if len(parts) != 3 {
			return bad("local memory is local:TYPE:COUNT")
		}
		if a.Type, err = ParseType(parts[1]); err != nil {
			return bad("%v", err)
		}
		a.Count = parts[2]
	default:
		a.Kind = KindValue
		if a.Type, err = ParseType(parts[0]); err != nil {
			return bad("%v (or start with buf: or local:)", err)
		}
		if len(parts) != 2 || parts[1] == "" {
			return bad("a value is TYPE:VALUE, e.g. int:4096 or float4:1,2,3,4")
		}
		a.Values = strings.Split(parts[1], ",")
		if len(a.Values) != 1 && len(a.Values) != a.Type.Lanes {
			return bad("type %s takes 1 or %d values, got %d", a.Type.Name, a.Type.Lanes, len(a.Values))
		}
		// Values without names are checked now, before any device is touched;
		// the others when their names are bound (Resolve).
		if _, err := a.scalarBytes(nil); err != nil && !strings.Contains(err.Error(), "unknown name") && !strings.Contains(err.Error(), "is not a number") {
			return ArgSpec{}, err
		}
	}
	return a, nil
}

// value evaluates a scalar: a float literal, or an integer expression.
func value(s string, vars Vars) (float64, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, nil
	}
	v, err := Eval(s, vars)
	return float64(v), err
}

// Elements returns the element count of a buffer or local argument.
func (a ArgSpec) Elements(vars Vars) (int64, error) {
	n, err := Eval(a.Count, vars)
	if err != nil {
		return 0, fmt.Errorf("--arg %q: count %w", a.Text, err)
	}
	if n <= 0 {
		return 0, fmt.Errorf("--arg %q: the element count must be positive, got %d", a.Text, n)
	}
	return n, nil
}

// Resolve makes the runtime.Arg for argument index i with names bound to vars.
func (a ArgSpec) Resolve(i int, vars Vars) (runtime.Arg, error) {
	switch a.Kind {
	case KindBuffer, KindLocal:
		n, err := a.Elements(vars)
		if err != nil {
			return runtime.Arg{}, err
		}
		size := int64(a.Type.Size())
		if n > (1<<62)/size {
			return runtime.Arg{}, fmt.Errorf("--arg %q: %d elements overflow", a.Text, n)
		}
		if a.Kind == KindLocal {
			return runtime.Arg{Kind: runtime.ArgLocal, Name: a.Text, Bytes: n * size, Type: a.Type.Name}, nil
		}
		// The fill is the same every time and the checks (Expect) read outputs
		// only: an input is regenerated (Regen), with no host copy of it.
		init := a.initFunc(int64(i))
		return runtime.Arg{Kind: runtime.ArgBuffer, Name: a.Text, Bytes: n * size, Init: init, Regen: init != nil, Output: a.Out, Flags: cl.MemReadWrite, Type: a.Type.Name}, nil
	}
	b, err := a.scalarBytes(vars)
	if err != nil {
		return runtime.Arg{}, err
	}
	return runtime.Arg{Kind: runtime.ArgScalar, Name: a.Text, Value: b, Type: a.Type.Name}, nil
}

// scalarBytes encodes a value argument's values, each checked against the
// range of the type: whole numbers within it for integer types (no sign for
// unsigned ones), finite values within it for half and float (inf and nan are
// taken when written as such).
func (a ArgSpec) scalarBytes(vars Vars) ([]byte, error) {
	b := make([]byte, a.Type.Size())
	if len(a.Values) != 1 && len(a.Values) != a.Type.Lanes {
		return nil, fmt.Errorf("--arg %q: type %s takes %d values, got %d", a.Text, a.Type.Name, a.Type.Lanes, len(a.Values))
	}
	for l := 0; l < a.Type.Lanes; l++ {
		s := a.Values[0]
		if len(a.Values) > 1 {
			s = a.Values[l]
		}
		if err := a.Type.putText(b[l*a.Type.size:], strings.TrimSpace(s), vars); err != nil {
			return nil, fmt.Errorf("--arg %q: %w", a.Text, err)
		}
	}
	return b, nil
}

// intRanges are the ranges of OpenCL C's integer scalars (ulong's top is
// checked apart: it is beyond int64).
var intRanges = map[string][2]int64{
	"char": {math.MinInt8, math.MaxInt8}, "uchar": {0, math.MaxUint8},
	"short": {math.MinInt16, math.MaxInt16}, "ushort": {0, math.MaxUint16},
	"int": {math.MinInt32, math.MaxInt32}, "uint": {0, math.MaxUint32},
	"long": {math.MinInt64, math.MaxInt64}, "ulong": {0, math.MaxInt64},
}

// putText parses text as one scalar of t, checks it against t's range and
// writes it at b.
func (t ElemType) putText(b []byte, text string, vars Vars) error {
	if text == "" {
		return fmt.Errorf("a value is empty")
	}
	if t.IsFloat() {
		if _, err := strconv.ParseFloat(text, 64); errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s is out of range for %s", text, t.Scalar)
		}
		v, err := value(text, vars)
		if err != nil {
			return err
		}
		lower := strings.ToLower(strings.TrimLeft(text, "+-"))
		explicit := strings.HasPrefix(lower, "inf") || lower == "nan"
		max := map[string]float64{"half": 65504, "float": math.MaxFloat32, "double": math.MaxFloat64}[t.Scalar]
		if !explicit && (math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > max) {
			return fmt.Errorf("%s is out of range for %s (at most ±%.5g)", text, t.Scalar, max)
		}
		t.putScalar(b, v)
		return nil
	}
	r := intRanges[t.Scalar]
	if t.Scalar == "ulong" {
		if u, err := strconv.ParseUint(text, 10, 64); err == nil {
			binary.LittleEndian.PutUint64(b, u)
			return nil
		}
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		v, err = Eval(text, vars)
	}
	if err != nil {
		if f, ferr := strconv.ParseFloat(text, 64); ferr == nil {
			if f != math.Trunc(f) {
				return fmt.Errorf("%s is not a whole number, as %s takes", text, t.Scalar)
			}
			if f < float64(r[0]) || f > float64(r[1]) || f < -(1<<53) || f > 1<<53 {
				return fmt.Errorf("%s is out of range for %s (%s)", text, t.Scalar, rangeText(t.Scalar, r))
			}
			v, err = int64(f), nil
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "too large") || strings.Contains(err.Error(), "overflow") {
			return fmt.Errorf("%s is out of range for %s (%s)", text, t.Scalar, rangeText(t.Scalar, r))
		}
		return err
	}
	if v < r[0] || v > r[1] {
		return fmt.Errorf("%s is out of range for %s (%s)", text, t.Scalar, rangeText(t.Scalar, r))
	}
	t.putScalar(b, float64(v))
	if t.size == 8 {
		binary.LittleEndian.PutUint64(b, uint64(v)) // exact beyond 2^53
	}
	return nil
}

// rangeText is a type's range for a message.
func rangeText(scalar string, r [2]int64) string {
	if scalar == "ulong" {
		return "0 to 18446744073709551615"
	}
	return fmt.Sprintf("%d to %d", r[0], r[1])
}

// initFunc returns the buffer's fill: deterministic for a given argument index,
// so runs are repeatable; on every core, a piece at a time (fill.go).
func (a ArgSpec) initFunc(seed int64) func([]byte) {
	t := a.Type
	var gen func(int64, []float64)
	switch a.Init {
	case "zero":
		return nil
	case "ones":
		gen = constGen(1)
	case "seq":
		gen = seqGen
	case "rand":
		gen = randGen(uint64(seed+1), t.IsFloat())
	default:
		v, _ := strconv.ParseFloat(a.Init, 64)
		gen = constGen(v)
	}
	return func(b []byte) { fillScalars(b, t, gen) }
}
