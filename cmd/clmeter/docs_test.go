package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/runtime/icd"
)

// The examples test of the documentation: every shell command in README.md and
// docs/*.md runs here on the default device (PoCL in CI), each page in a folder of its
// own with a copy of examples/ and bench/'s kernels, a private binary cache (off: the
// store of a miss waits for PoCL's binary of every kernel), device profile and user data
// folder. A command line is a code block line that starts with
// "$ " (a prompt) or with "clmeter ", "bin/clmeter " or "make ". Measuring commands get
// fast measurement flags (docFastArgs); "make" targets are not run but must exist.

// docCommand is one shell command of a code block in a documentation page.
type docCommand struct {
	file  string // README.md, docs/COMMANDS.md
	line  int    // 1-based line of the command in file
	block int    // the code block's number in file: a "cd" lasts to its end
	text  string // the command: prompt and comment cut, continuation lines joined
}

func (c docCommand) String() string { return fmt.Sprintf("%s:%d: %s", c.file, c.line, c.text) }

// docNotRun are commands the test does not run, each with the reason (matched as a
// prefix of the command).
var docNotRun = map[string]string{
	"clmeter serve": "serves until Ctrl-C: run as 'clmeter serve --help'",
}

// docWantExit are the commands whose documented exit status is not 0 (matched as a
// substring); each names the statuses it may give.
var docWantExit = map[string][]int{
	"check examples/bugs/":       {3},    // findings
	"examples/overrun/copy.cl":   {3},    // the kernel writes past a buffer
	"history --regressions --ci": {0, 5}, // 5 when the walkthrough's step is found
}

// docModeEnv carries how a clmeter started by a documented command rewrites its
// arguments ("fast" or "help"); the child reads it once and removes it, so its own
// children (check's Oclgrind child, the cache's store child) are left alone.
const docModeEnv = "CLMETER_DOCS_MODE"

func init() {
	mode := os.Getenv(docModeEnv)
	if mode == "" || os.Getenv("CLMETER_TEST_MAIN") != "1" {
		return
	}
	os.Unsetenv(docModeEnv)
	for i, a := range os.Args {
		if a == "--" {
			args := append([]string{}, os.Args[i+1:]...)
			os.Args = append(os.Args[:i+1:i+1], docArgs(mode, args)...)
			return
		}
	}
}

// docArgs rewrites a documented command's arguments for the test: "help" keeps the
// command (and a cache, store or profile subcommand) and asks for its --help; "fast"
// adds flags that keep a measurement short.
func docArgs(mode string, args []string) []string {
	if len(args) == 0 {
		return args
	}
	if mode == "help" {
		n := 1
		if len(args) > 1 && (args[0] == "cache" || args[0] == "store" || args[0] == "profile") && !strings.HasPrefix(args[1], "-") {
			n = 2
		}
		return append(append([]string{}, args[:n]...), "--help")
	}
	return docFastArgs(args)
}

// docFastArgs sets the measurement flags of a measuring command to a short run.
func docFastArgs(args []string) []string {
	fast := map[string]string{"--samples": "3", "--min-sample-time": "1ms", "--warmup": "1x"}
	switch {
	case args[0] == "run" || args[0] == "trace":
		fast["--no-profile"] = ""
	case args[0] == "compare" && hasArg(args, "--interleave"):
		fast["--no-profile"] = ""
	case args[0] == "suite":
		fast["--no-profile"], fast["--small"] = "", ""
	case args[0] == "tune":
		fast["--budget"] = "30s"
	case args[0] == "cache" && len(args) > 1 && args[1] == "bench":
		return setFlags(args, 2, map[string]string{"--trials": "1"}, map[string]string{"-n": "--trials"})
	default:
		return args
	}
	return setFlags(args, 1, fast, map[string]string{})
}

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// setFlags removes every occurrence of the flags in set (and of their aliases) from args
// and inserts them, with their values ("" for a switch), after the first n arguments.
func setFlags(args []string, n int, set map[string]string, alias map[string]string) []string {
	out := append([]string{}, args[:n]...)
	for name, v := range set {
		out = append(out, name)
		if v != "" {
			out = append(out, v)
		}
	}
	for i := n; i < len(args); i++ {
		name, _, eq := strings.Cut(args[i], "=")
		if a, ok := alias[name]; ok {
			name = a
		}
		v, ok := set[name]
		if !ok {
			out = append(out, args[i])
			continue
		}
		if v != "" && !eq {
			i++ // its value
		}
	}
	return out
}

// docPages lists README.md and every docs/*.md, relative to the repository root.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	out := []string{"README.md"}
	for _, p := range pages {
		out = append(out, filepath.Join("docs", filepath.Base(p)))
	}
	if len(out) < 6 {
		t.Fatalf("found %d documentation pages (%v), want README.md and docs/", len(out), out)
	}
	return out
}

var docCommandStart = regexp.MustCompile(`^(\$ |clmeter |bin/clmeter |make )`)

// docCommands returns the shell commands of the code blocks (fenced, or indented by
// four spaces after a blank line) of one page.
func docCommands(file, src string) []docCommand {
	var cmds []docCommand
	lines := strings.Split(src, "\n")
	fenced, indented, block := false, false, 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "```"):
			fenced = !fenced
			block++
			continue
		case fenced:
		case strings.HasPrefix(l, "    ") && (indented || i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			if !indented {
				block++
			}
			indented = true
			l = l[4:]
		case strings.TrimSpace(l) == "":
			continue // a blank line inside an indented block does not end it
		default:
			indented = false
			continue
		}
		if !docCommandStart.MatchString(l) {
			continue
		}
		c := docCommand{file: file, line: i + 1, block: block, text: strings.TrimPrefix(l, "$ ")}
		for strings.HasSuffix(c.text, `\`) && i+1 < len(lines) {
			i++
			c.text = strings.TrimSpace(strings.TrimSuffix(c.text, `\`)) + " " + strings.TrimSpace(lines[i])
		}
		c.text = cutComment(c.text)
		cmds = append(cmds, c)
	}
	return cmds
}

// cutComment drops a shell comment (" #" outside quotes) and trailing space.
func cutComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch {
		case quote != 0 && s[i] == quote:
			quote = 0
		case quote == 0 && (s[i] == '"' || s[i] == '\''):
			quote = s[i]
		case quote == 0 && s[i] == '#' && i > 0 && s[i-1] == ' ':
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// TestExampleDocsCommands extracts the commands of README.md and docs/*.md and runs
// every one (see the comment at the top of this file).
func TestExampleDocsCommands(t *testing.T) {
	root, _ := filepath.Abs("../..")
	var all []docCommand
	for _, p := range docPages(t, root) {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, docCommands(p, string(src))...)
	}
	if len(all) < 20 {
		t.Fatalf("found %d commands in the documentation, want at least 20", len(all))
	}
	needDevice(t)
	if testing.Short() {
		t.Skip("-short: the documented commands measure")
	}
	w := newDocWorld(t, root)
	for _, c := range all {
		if regexp.MustCompile(`(--device|-d) gpu`).MatchString(c.text) {
			w.gpu[fmt.Sprintf("%s:%d", c.file, c.block)] = true
		}
	}
	for _, c := range all {
		w.run(t, c)
	}
}

// docWorld is where the documented commands run: a folder per page, the environment,
// and each page's current folder and exported variables.
type docWorld struct {
	root, tmp string
	env       []string
	dir       map[string]string // page -> its folder
	cwd       map[string]string // page -> the current folder of its current block
	block     map[string]int
	exported  map[string][]string // page -> the variables its commands exported
	gpu       map[string]bool     // page:block -> the block measures on a GPU
	makefile  string
}

func newDocWorld(t *testing.T, root string) *docWorld {
	t.Helper()
	tmp := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "path")
	wrapper := fmt.Sprintf("#!/bin/sh\nexec env CLMETER_TEST_MAIN=1 %s=\"${%s:-fast}\" %q -- \"$@\"\n", docModeEnv, docModeEnv, exe)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "clmeter"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	mk, _ := os.ReadFile(filepath.Join(root, "Makefile"))
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CLMETER_DEVICE=cpu",
		"CLMETER_CACHE_DIR="+filepath.Join(tmp, "cache"),
		"CLMETER_PROFILE_DIR="+filepath.Join(tmp, "profiles"),
		"CLMETER_CACHE_STORE_WAIT=1",
		"CLMETER_NO_CACHE=1", // storing PoCL binaries of the suites' many kernels took minutes
		"XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_CACHE_HOME="+filepath.Join(tmp, "xdgcache"),
		"COLUMNS=100",
		"CLMETER_STORE=",
	)
	return &docWorld{root: root, tmp: tmp, env: env, dir: map[string]string{}, cwd: map[string]string{},
		block: map[string]int{}, exported: map[string][]string{}, gpu: map[string]bool{}, makefile: string(mk)}
}

// pageDir makes a page's folder: a copy of examples/, of the built-in kernels their spec
// files name, and of bench/'s kernels, and bin/clmeter for the commands written with it.
func (w *docWorld) pageDir(t *testing.T, page string) string {
	t.Helper()
	if d, ok := w.dir[page]; ok {
		return d
	}
	d := filepath.Join(w.tmp, "pages", strings.NewReplacer("/", "_", ".", "_").Replace(page))
	cp := exec.Command("sh", "-c", `mkdir -p "$1/bench" "$1/bin" "$1/out" "$1/clkernels" && cp -R "$2/examples" "$1/" && cp -R "$2/clkernels/cl" "$1/clkernels/" && cp "$2"/bench/*.cl "$1/bench/" && ln -s "$3" "$1/bin/clmeter"`,
		"sh", d, w.root, filepath.Join(w.tmp, "path", "clmeter"))
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("preparing %s: %v: %s", d, err, out)
	}
	w.dir[page] = d
	return d
}

// run runs one documented command, or checks it where it is not run, and fails the
// test when its exit status is not the documented one.
func (w *docWorld) run(t *testing.T, c docCommand) {
	t.Helper()
	dir := w.pageDir(t, c.file)
	if w.block[c.file] != c.block {
		w.block[c.file], w.cwd[c.file] = c.block, dir
	}
	if strings.Contains(c.text, "...") || strings.Contains(c.text, "…") {
		t.Errorf("%s: an elided command cannot run: write it whole", c)
		return
	}
	words := strings.Fields(c.text)
	switch {
	case words[0] == "make":
		for _, target := range words[1:] {
			if !strings.Contains(target, "=") && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(target)+`:`).MatchString(w.makefile) {
				t.Errorf("%s: the Makefile has no target %q", c, target)
			}
		}
		t.Logf("%s: not run (it sets up the machine and takes minutes); its targets exist", c)
		return
	case words[0] == "cd" && len(words) == 2:
		w.cwd[c.file] = filepath.Join(w.cwd[c.file], words[1])
		return
	case words[0] == "export" && len(words) == 2:
		w.exported[c.file] = append(w.exported[c.file], os.Expand(words[1], func(k string) string {
			if k == "PWD" {
				return w.cwd[c.file]
			}
			return os.Getenv(k)
		}))
		return
	}
	mode := "fast"
	for prefix, why := range docNotRun {
		if strings.HasPrefix(c.text, prefix) {
			t.Logf("%s: run with --help: %s", c, why)
			mode = "help"
		}
	}
	if w.gpu[fmt.Sprintf("%s:%d", c.file, c.block)] {
		mode = "help" // measured on a GPU: CI has none, so each command of its block runs with --help
	}
	if strings.HasPrefix(c.text, "clmeter check") && os.Getenv("CI") == "" {
		if _, err := icd.FindOclgrindICD(os.Getenv(icd.OclgrindICDEnv)); err != nil {
			t.Logf("%s: not run: no Oclgrind here (make test-deps installs it): %v", c, err)
			return
		}
	}
	w.exec(t, c, mode)
}

// exec runs a command in bash, in its page's current folder.
func (w *docWorld) exec(t *testing.T, c docCommand, mode string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", c.text)
	cmd.Dir = w.cwd[c.file]
	cmd.Env = append(append(append([]string{}, w.env...), w.exported[c.file]...), docModeEnv+"="+mode)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Errorf("%s: %v", c, err)
		return
	}
	want := []int{0}
	for sub, codes := range docWantExit {
		if strings.Contains(c.text, sub) {
			want = codes
		}
	}
	for _, ok := range want {
		if code == ok {
			t.Logf("%s (%s, %.1f s): exit %d", c, mode, time.Since(start).Seconds(), code)
			return
		}
	}
	t.Errorf("%s (%s): exit %d, want %v:\n%s", c, mode, code, want, lastLines(string(out), 20))
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestExampleDocsLinks checks README.md's length and that no link of README.md or
// docs/*.md leaves the repository: a markdown link is relative and names a file or
// folder that exists; no URL stands in prose, where a renderer would link it.
func TestExampleDocsLinks(t *testing.T) {
	root, _ := filepath.Abs("../..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 200 {
		t.Errorf("README.md has %d lines, want at most 200 (the rest belongs in docs/)", n)
	}
	for _, p := range docPages(t, root) {
		src, _ := os.ReadFile(filepath.Join(root, p))
		for _, bad := range docLinkProblems(root, p, string(src)) {
			t.Errorf("%s", bad)
		}
	}
}

var (
	mdLink    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)[^)]*\)|^\s*\[[^\]]+\]:\s*(\S+)`)
	autoLink  = regexp.MustCompile(`<[a-z]+:[^>]*>|https?://|www\.`)
	codeSpan  = regexp.MustCompile("`[^`]*`")
	machineRe = regexp.MustCompile(`\.\./shared|/work/|/home/|/root/`)
)

// docLinkProblems returns what is wrong with the links of one page.
func docLinkProblems(root, page, src string) []string {
	var bad []string
	fenced, prev := false, ""
	for i, l := range strings.Split(src, "\n") {
		where := fmt.Sprintf("%s:%d", page, i+1)
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if m := machineRe.FindString(l); m != "" && !strings.Contains(l, "/root/.cache") {
			bad = append(bad, fmt.Sprintf("%s: %q points outside the repository, to this machine", where, m))
		}
		if strings.HasPrefix(l, "    $ ") && !fenced && i > 0 && prev != "" && !strings.HasPrefix(prev, "    ") {
			bad = append(bad, fmt.Sprintf("%s: a command glued to a paragraph renders as prose: leave a blank line before it", where))
		}
		prev = strings.TrimRight(l, " ")
		if fenced || strings.HasPrefix(l, "    ") {
			continue // a code block: printed output, not a link
		}
		prose := codeSpan.ReplaceAllString(l, "")
		for _, m := range mdLink.FindAllStringSubmatch(prose, -1) {
			target := m[1] + m[2]
			if p := docLinkProblem(root, page, target); p != "" {
				bad = append(bad, fmt.Sprintf("%s: link %q %s", where, target, p))
			}
		}
		if m := autoLink.FindString(mdLink.ReplaceAllString(prose, "")); m != "" {
			bad = append(bad, fmt.Sprintf("%s: %q in prose becomes a link that leaves the repository: name the project instead", where, m))
		}
	}
	return bad
}

// docLinkProblem says what is wrong with one link target of page, or "".
func docLinkProblem(root, page, target string) string {
	path, _, _ := strings.Cut(target, "#")
	switch {
	case strings.Contains(target, ":"):
		return "leaves the repository: name the project instead"
	case strings.HasPrefix(target, "/"):
		return "is an absolute path"
	case path == "":
		return "" // an anchor in this page
	}
	full := filepath.Join(root, filepath.Dir(page), path)
	if rel, err := filepath.Rel(root, full); err != nil || strings.HasPrefix(rel, "..") {
		return "leaves the repository"
	}
	if _, err := os.Stat(full); err != nil {
		return "names no file of the repository"
	}
	return ""
}

// TestExampleDocsParsing checks the extraction of commands and the link rules on a
// page made for it, so that the two tests above can fail.
func TestExampleDocsParsing(t *testing.T) {
	page := "Intro `clmeter run x` in prose.\n\n" +
		"    $ clmeter run saxpy \\\n        --size 1Mi   # a comment\n    saxpy  1.0 ms\n    clmeter: stored\n\n" +
		"```\nmake run     # set up\n$ cd examples/blur\n```\n" +
		"Text\n    $ clmeter glued\n\n" +
		"[ok](COMMANDS.md) [up](../README.md) [out](../../x.md) [web](https://example.org)\n" +
		"[abs](/etc/passwd) [none](NOSUCH.md) see https://example.org and ../shared/x\n"
	got := docCommands("docs/T.md", page)
	want := []string{"clmeter run saxpy --size 1Mi", "make run", "cd examples/blur"}
	if len(got) != len(want) {
		t.Fatalf("commands %v, want %v", got, want)
	}
	for i, c := range got {
		if c.text != want[i] {
			t.Errorf("command %d: %q, want %q", i, c.text, want[i])
		}
	}
	if got[0].line != 3 || got[1].block == got[0].block || got[2].block != got[1].block {
		t.Errorf("lines and blocks: %+v", got)
	}
	root, _ := filepath.Abs("../..")
	bad := strings.Join(docLinkProblems(root, "docs/T.md", page), "\n")
	for _, w := range []string{"glued to a paragraph", `"../../x.md" leaves the repository`, `"https://example.org" leaves`,
		`"/etc/passwd" is an absolute path`, `"NOSUCH.md" names no file`, `"https://" in prose`, `"../shared" points outside`} {
		if !strings.Contains(bad, w) {
			t.Errorf("problems lack %q:\n%s", w, bad)
		}
	}
	for _, ok := range []string{`"COMMANDS.md"`, `"../README.md"`} {
		if strings.Contains(bad, ok) {
			t.Errorf("a good link was refused: %s\n%s", ok, bad)
		}
	}
	args := docFastArgs([]string{"run", "triad", "--samples", "15", "--warmup=2x"})
	if j := strings.Join(args, " "); strings.Count(j, "--samples") != 1 || strings.Contains(j, "15") || strings.Contains(j, "2x") || !strings.Contains(j, "triad") {
		t.Errorf("fast args: %s", j)
	}
}
