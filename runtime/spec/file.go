package spec

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/clmeter/clmeter/internal/userfile"
)

// FileSyntax documents the spec file for --help and the README.
const FileSyntax = `A spec file (YAML) describes a repeatable run:

  source: blur.cl            # path, relative to the spec file
  kernel: blur
  defines: [TILE=16]         # -D options; $NAME is an axis's value (TILE=$T)
  include: [include]         # -I folders, relative to the spec file
  options: -cl-fast-relaxed-math
  global: N,N                # expressions over the axes
  local: 16,16
  args:
    - buf:float:N*N:rand
    - buf:float:N*N:zero:out
    - int:N
  bytes: 2*N*N*4             # bytes moved per launch (for GB/s)
  flops: 9*N*N               # operations per launch (for GFLOP/s)
  axes:                      # every combination is one benchmark
    N: [1024, 2048, 4096]
  expect:                    # optional output checks after one launch
    - {arg: 1, value: 0}     # a number or an expression (N*2); or
                             # {arg: 1, file: expected.bin, tolerance: 1e-5}`

// fileSpec is the YAML form of a spec file.
type fileSpec struct {
	Source  string       `yaml:"source"`
	Kernel  string       `yaml:"kernel"`
	Defines []string     `yaml:"defines"`
	Include []string     `yaml:"include"`
	Options string       `yaml:"options"`
	Global  exprList     `yaml:"global"`
	Local   exprList     `yaml:"local"`
	Args    []string     `yaml:"args"`
	Bytes   exprString   `yaml:"bytes"`
	Flops   exprString   `yaml:"flops"`
	Axes    yaml.Node    `yaml:"axes"`
	Expect  []fileExpect `yaml:"expect"`
}

type fileExpect struct {
	Arg       int         `yaml:"arg"`
	Value     *exprString `yaml:"value"`
	File      string      `yaml:"file"`
	Tolerance float64     `yaml:"tolerance"`
}

// exprList takes "4096,4096", 4096 or [N, N].
type exprList string

func (e *exprList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*e = exprList(n.Value)
	case yaml.SequenceNode:
		var parts []string
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a size is a number or an expression", c.Line)
			}
			parts = append(parts, c.Value)
		}
		*e = exprList(strings.Join(parts, ","))
	default:
		return fmt.Errorf("line %d: a size is N, \"N,N\" or [N, N]", n.Line)
	}
	return nil
}

// exprString takes a number or an expression.
type exprString string

func (e *exprString) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a number or an expression", n.Line)
	}
	*e = exprString(n.Value)
	return nil
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

var yamlType = regexp.MustCompile("cannot unmarshal !!(\\w+) ?(`.*`)? ?into (\\S+)")

// yamlTagWords names a YAML tag for a person.
func yamlTagWords(tag string) string {
	switch tag {
	case "str":
		return "the text"
	case "int", "float":
		return "the number"
	case "bool":
		return "the true/false"
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	}
	return "a " + tag
}

// goTypeWords names the Go type a spec field decodes into for a person.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]spec.fileExpect"):
		return "a list of expect entries ({arg: 1, value: 3})"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case t == "spec.fileExpect":
		return "an expect entry ({arg: 1, value: 3})"
	case t == "string":
		return "text"
	case t == "int", t == "int64":
		return "a whole number"
	case t == "float64":
		return "a number"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "map["):
		return "a mapping (name: value)"
	}
	return t
}

// fileError turns a YAML error into "FILE:LINE: reason".
func fileError(path string, err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		reason := strings.Replace(m[2], "not found in type spec.fileSpec", "is not a spec file field (source, kernel, defines, include, options, global, local, args, bytes, flops, axes, expect)", 1)
		reason = strings.Replace(reason, "not found in type spec.fileExpect", "is not an expect field (arg, value, file, tolerance)", 1)
		if t := yamlType.FindStringSubmatch(reason); t != nil {
			reason = strings.TrimSpace(fmt.Sprintf("want %s here, not %s %s", goTypeWords(t[3]), yamlTagWords(t[1]), t[2]))
			if strings.HasPrefix(t[3], "[]") {
				reason += " (a list is [a, b] or one '- item' a line)"
			}
		}
		return fmt.Errorf("%s:%s: %s", path, m[1], reason)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// LoadFile reads a spec file (see FileSyntax) and the source it names; it
// refuses more than maxConfigs configurations (0: DefaultMaxConfigs).
func LoadFile(path string, maxConfigs int64) (*Kernel, error) {
	data, err := userfile.Read(path, specLimit())
	if err != nil {
		return nil, fmt.Errorf("reading spec file: %w", err)
	}
	return parseFile(path, data, maxConfigs)
}

// LoadFileUnchecked reads a spec file and the source it names without
// Check, for a caller that changes its axes (and MaxConfigs) and then calls
// Check itself (package target): a spec of more configurations than the
// limit may be narrowed with --set.
func LoadFileUnchecked(path string) (*Kernel, error) {
	data, err := userfile.Read(path, specLimit())
	if err != nil {
		return nil, fmt.Errorf("reading spec file: %w", err)
	}
	return parseFile(path, data, -1)
}

// ParseFile parses a spec file's contents; path names it in errors and anchors
// relative paths. It refuses more than DefaultMaxConfigs configurations.
func ParseFile(path string, data []byte) (*Kernel, error) {
	return parseFile(path, data, 0)
}

// parseFile is ParseFile with a limit on configurations (0: the default);
// a negative limit leaves Check to the caller.
func parseFile(path string, data []byte, maxConfigs int64) (*Kernel, error) {
	var fs fileSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fs); err != nil {
		if err.Error() == "EOF" {
			return nil, fmt.Errorf("%s: the spec file is empty", path)
		}
		return nil, fileError(path, err)
	}
	// Paths in the file are relative to its real folder: through a symbolic
	// link, "../" climbs from where the file is, not from the link.
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		dir = filepath.Dir(real)
	}
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	if fs.Source == "" {
		return nil, fmt.Errorf("%s: source: is missing (the .cl file to build)", path)
	}
	if fs.Kernel == "" {
		return nil, fmt.Errorf("%s: kernel: is missing (the kernel function to run)", path)
	}
	k := &Kernel{SourcePath: rel(fs.Source), Kernel: fs.Kernel, Global: string(fs.Global), Local: string(fs.Local), Bytes: string(fs.Bytes), Flops: string(fs.Flops),
		MaxConfigs: maxConfigs}
	var incs []string
	for _, inc := range fs.Include {
		incs = append(incs, rel(inc))
	}
	k.Options = BuildOptions(fs.Defines, incs, fs.Options)
	for i, a := range fs.Args {
		as, err := ParseArg(a)
		if err != nil {
			return nil, fmt.Errorf("%s: args[%d]: %w", path, i, err)
		}
		k.Args = append(k.Args, as)
	}
	var err error
	if k.Axes, err = parseAxes(path, &fs.Axes); err != nil {
		return nil, err
	}
	for _, e := range fs.Expect {
		x := Expect{Arg: e.Arg, Tolerance: e.Tolerance}
		if e.Value != nil {
			x.Value = string(*e.Value)
		}
		if e.File != "" {
			x.Path = rel(e.File)
			if x.File, err = userfile.Read(x.Path, expectLimit()); err != nil {
				return nil, fmt.Errorf("%s: expect: %w", path, err)
			}
		} else if e.Value == nil {
			return nil, fmt.Errorf("%s: expect for argument %d needs value: or file:", path, e.Arg)
		}
		k.Expect = append(k.Expect, x)
	}
	if k.Source, err = ReadSource(k.SourcePath); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if maxConfigs < 0 {
		k.MaxConfigs = 0
		return k, nil
	}
	if err := k.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// parseAxes reads the axes mapping in file order: NAME: [values] or NAME: value.
func parseAxes(path string, n *yaml.Node) ([]Axis, error) {
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: axes: is a mapping of NAME: [values]", path, n.Line)
	}
	var axes []Axis
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		name := key.Value
		if !validName(name) {
			return nil, fmt.Errorf("%s:%d: axis name %q: use letters, digits and _, starting with a letter", path, key.Line, name)
		}
		var items []*yaml.Node
		switch val.Kind {
		case yaml.ScalarNode:
			items = []*yaml.Node{val}
		case yaml.SequenceNode:
			items = val.Content
		default:
			return nil, fmt.Errorf("%s:%d: axis %s: want a list of sizes", path, val.Line, name)
		}
		ax := Axis{Name: name}
		for _, it := range items {
			v, err := ParseSize(it.Value)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: axis %s: %w", path, it.Line, name, err)
			}
			ax.Values = append(ax.Values, v)
		}
		if len(ax.Values) == 0 {
			return nil, fmt.Errorf("%s:%d: axis %s has no values", path, val.Line, name)
		}
		axes = append(axes, ax)
	}
	return axes, nil
}

func validName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && c != '_' && (c < '0' || c > '9') {
			return false
		}
	}
	_, err := strconv.Atoi(s)
	return err != nil
}
