// Package spec turns a user's description of a kernel run — command-line
// arguments or a spec file — into runtime.KernelBenchmarks. It holds the size
// grammar (1Mi, 4K, 2^20), size expressions over named values (N*N*4), the kernel
// argument grammar (buf:float:N:rand) and the YAML spec file with sweep axes.
package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/units"
)

// Vars are the named values a size expression may use (N, axis names).
type Vars map[string]int64

// ParseSize parses a positive size: a plain integer (4096), one with a decimal
// suffix K, M, G, T (powers of 1000) or a binary one Ki, Mi, Gi, Ti (powers of
// 1024), or a power 2^20. Zero and negative sizes are errors.
func ParseSize(s string) (int64, error) {
	v, err := Eval(s, nil)
	if err != nil {
		return 0, err
	}
	if v <= 0 {
		return 0, fmt.Errorf("size %q must be positive", s)
	}
	return v, nil
}

// Eval evaluates an integer expression: numbers with size suffixes (4Ki, 2M),
// powers (2^20), names from vars, + - * / % and parentheses. Division is integer
// division; overflow and division by zero are errors.
func Eval(s string, vars Vars) (int64, error) {
	p := &parser{src: s, vars: vars}
	p.next()
	v, err := p.expr()
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	if p.tok.kind != tokEOF {
		return 0, fmt.Errorf("%q: unexpected %q at offset %d", s, p.tok.text, p.tok.pos)
	}
	return v, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokOp
)

type token struct {
	kind tokKind
	text string
	num  int64
	pos  int
}

type parser struct {
	src  string
	pos  int
	tok  token
	err  error
	vars Vars
}

var suffixes = units.Suffixes

func (p *parser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{kind: tokEOF, pos: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		digits := p.src[start:p.pos]
		sstart := p.pos
		for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
			p.pos++
		}
		suf := p.src[sstart:p.pos]
		mult, ok := suffixes[suf]
		if !ok {
			p.fail(fmt.Errorf("unknown size suffix %q (use %s)", suf, units.SuffixHelp))
			p.tok = token{kind: tokEOF, pos: start}
			return
		}
		n, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || (mult > 1 && n > math.MaxInt64/mult) {
			p.fail(fmt.Errorf("number %s%s is too large", digits, suf))
			p.tok = token{kind: tokEOF, pos: start}
			return
		}
		p.tok = token{kind: tokNum, text: p.src[start:p.pos], num: n * mult, pos: start}
	case isLetter(c) || c == '_':
		for p.pos < len(p.src) && (isLetter(p.src[p.pos]) || p.src[p.pos] == '_' || (p.src[p.pos] >= '0' && p.src[p.pos] <= '9')) {
			p.pos++
		}
		p.tok = token{kind: tokName, text: p.src[start:p.pos], pos: start}
	case strings.ContainsRune("+-*/%^()", rune(c)):
		p.pos++
		p.tok = token{kind: tokOp, text: string(c), pos: start}
	default:
		p.fail(fmt.Errorf("unexpected character %q at offset %d", c, start))
		p.tok = token{kind: tokEOF, pos: start}
	}
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func (p *parser) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// expr := term (('+'|'-') term)*
func (p *parser) expr() (int64, error) {
	v, err := p.term()
	for err == nil && p.tok.kind == tokOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok.text
		p.next()
		var r int64
		if r, err = p.term(); err != nil {
			break
		}
		if op == "+" {
			if (r > 0 && v > math.MaxInt64-r) || (r < 0 && v < math.MinInt64-r) {
				return 0, fmt.Errorf("overflow")
			}
			v += r
		} else {
			if (r < 0 && v > math.MaxInt64+r) || (r > 0 && v < math.MinInt64+r) {
				return 0, fmt.Errorf("overflow")
			}
			v -= r
		}
	}
	if p.err != nil {
		return 0, p.err
	}
	return v, err
}

// term := power (('*'|'/'|'%') power)*
func (p *parser) term() (int64, error) {
	v, err := p.power()
	for err == nil && p.tok.kind == tokOp && strings.Contains("*/%", p.tok.text) {
		op := p.tok.text
		p.next()
		var r int64
		if r, err = p.power(); err != nil {
			break
		}
		switch op {
		case "*":
			if v != 0 && r != 0 && (absI(v) > math.MaxInt64/absI(r)) {
				return 0, fmt.Errorf("overflow")
			}
			v *= r
		case "/", "%":
			if r == 0 {
				return 0, fmt.Errorf("division by zero")
			}
			if op == "/" {
				v /= r
			} else {
				v %= r
			}
		}
	}
	return v, err
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// power := unary ('^' power)?
func (p *parser) power() (int64, error) {
	base, err := p.unary()
	if err != nil {
		return 0, err
	}
	if p.tok.kind == tokOp && p.tok.text == "^" {
		p.next()
		exp, err := p.power()
		if err != nil {
			return 0, err
		}
		if exp < 0 {
			return 0, fmt.Errorf("negative exponent")
		}
		if base == -1 {
			if exp%2 == 0 {
				return 1, nil
			}
			return -1, nil
		}
		v := int64(1)
		for i := int64(0); i < exp; i++ {
			if base != 0 && absI(v) > math.MaxInt64/absI(base) {
				return 0, fmt.Errorf("overflow")
			}
			v *= base
			if v == 0 || v == 1 && base == 1 {
				break
			}
		}
		return v, nil
	}
	return base, nil
}

// unary := '-' unary | '(' expr ')' | number | name
func (p *parser) unary() (int64, error) {
	if p.err != nil {
		return 0, p.err
	}
	switch p.tok.kind {
	case tokOp:
		switch p.tok.text {
		case "-":
			p.next()
			v, err := p.unary()
			return -v, err
		case "(":
			p.next()
			v, err := p.expr()
			if err != nil {
				return 0, err
			}
			if p.tok.kind != tokOp || p.tok.text != ")" {
				return 0, fmt.Errorf("missing ')'")
			}
			p.next()
			return v, nil
		}
		return 0, fmt.Errorf("unexpected %q at offset %d", p.tok.text, p.tok.pos)
	case tokNum:
		v := p.tok.num
		p.next()
		return v, p.err
	case tokName:
		name := p.tok.text
		v, ok := p.vars[name]
		if !ok {
			if len(p.vars) == 0 {
				hint := ""
				if name == "N" {
					hint = "; N is the --size, which was not given"
				}
				return 0, fmt.Errorf("%s is not a number: want a whole number (4096), a size (4Ki, 1M) or a power (2^20)%s", name, hint)
			}
			return 0, fmt.Errorf("unknown name %s%s", name, knownNames(p.vars))
		}
		p.next()
		return v, p.err
	}
	if p.err != nil {
		return 0, p.err
	}
	return 0, fmt.Errorf("expression ends early")
}

func knownNames(v Vars) string {
	if len(v) == 0 {
		return " (no names are defined here)"
	}
	var names []string
	for k := range v {
		names = append(names, k)
	}
	sortStrings(names)
	return " (defined: " + strings.Join(names, ", ") + ")"
}

// ParseList parses a comma-separated list of expressions, as --global 4096,4096.
func ParseList(s string, vars Vars) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(s, ",") {
		v, err := Eval(strings.TrimSpace(part), vars)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
