package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestCompletionAndMan: the completion scripts and the manual page come from
// the command definitions: bash's script loads in bash and asks clmeter, whose
// answer lists the commands; fish's and the man page name every command.
func TestCompletionAndMan(t *testing.T) {
	if os.Getenv("CLMETER_TEST_MAIN") == "1" {
		main()
		return
	}
	code, bash, errs := clm(t, "completion", "bash")
	if code != 0 || !strings.Contains(bash, "complete -o bashdefault -o default -F _clmeter_complete clmeter") {
		t.Fatalf("completion bash: exit %d, %q, stderr %q", code, bash, errs)
	}
	if sh, err := exec.LookPath("bash"); err == nil {
		f := filepath.Join(t.TempDir(), "c.bash")
		os.WriteFile(f, []byte(bash), 0o644)
		if out, err := exec.Command(sh, "-c", "source "+f+" && complete -p clmeter").CombinedOutput(); err != nil {
			t.Errorf("bash cannot load the script: %v\n%s", err, out)
		}
	}
	// urfave/cli reads the completion request from os.Args: ask a child
	// that runs main, as the shell asks clmeter.
	cmd := exec.Command(os.Args[0], "-test.run=^TestCompletionAndMan$", "--", "--generate-bash-completion")
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
	words, _ := cmd.Output()
	for _, c := range []string{"run", "suite", "history", "completion", "man"} {
		if !strings.Contains("\n"+string(words), "\n"+c+"\n") {
			t.Errorf("the words bash completes after 'clmeter' lack %q: %q", c, words)
		}
	}
	// Suite names, built-in kernels and --format values complete too.
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"suite"}, []string{"quick", "peaks", "all"}},
		{[]string{"run"}, []string{"saxpy", "triad"}},
		{[]string{"report", "--format"}, []string{"html", "benchfmt", "md"}},
		{[]string{"devices", "--format"}, []string{"table", "json"}},
	} {
		cmd := exec.Command(os.Args[0], append(append([]string{"-test.run=^TestCompletionAndMan$", "--"}, c.args...), "--generate-bash-completion")...)
		cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
		words, _ := cmd.Output()
		for _, w := range c.want {
			if !strings.Contains("\n"+string(words), "\n"+w+"\n") {
				t.Errorf("the words bash completes after 'clmeter %s' lack %q: %q", strings.Join(c.args, " "), w, words)
			}
		}
	}
	code, zsh, _ := clm(t, "completion", "zsh")
	if code != 0 || !strings.HasPrefix(zsh, "#compdef clmeter") {
		t.Errorf("completion zsh: %q", zsh)
	}
	code, fish, _ := clm(t, "completion", "fish")
	code2, man, _ := clm(t, "man")
	if code != 0 || code2 != 0 || !strings.Contains(man, ".TH clmeter 1") {
		t.Fatalf("fish exit %d, man exit %d: %q", code, code2, man[:min(len(man), 200)])
	}
	for _, c := range commands {
		if c.Hidden {
			continue
		}
		if !strings.Contains(fish, "-a '"+c.Name+"'") && !strings.Contains(fish, "-a "+c.Name) {
			t.Errorf("fish completion lacks the command %q", c.Name)
		}
		if !strings.Contains(man, c.Name) {
			t.Errorf("the man page lacks the command %q", c.Name)
		}
	}
}

// TestHelpListsEnvironment: every CLMETER_* variable the commands read is in
// 'clmeter --help' (those only tests, the bench tool or a parent clmeter set
// for its child are left out).
func TestHelpListsEnvironment(t *testing.T) {
	internal := map[string]bool{"CLMETER_ISOLATED": true, "CLMETER_BENCH_STORE": true}
	re := regexp.MustCompile(`"(CLMETER_[A-Z_]+)"`)
	found := map[string]bool{}
	root := filepath.Join("..", "..")
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "bench" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "storetest") || strings.Contains(path, "internal") {
			return nil
		}
		b, _ := os.ReadFile(path)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			if !internal[m[1]] {
				found[m[1]] = true
			}
		}
		return nil
	})
	if len(found) < 8 {
		t.Fatalf("found only %v", found)
	}
	_, help, _ := clm(t, "--help")
	var missing []string
	for v := range found {
		if !strings.Contains(help, v) {
			missing = append(missing, v)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("'clmeter --help' does not list %v", missing)
	}
	if code, out, _ := clm(t, "--version"); code != 0 || !strings.Contains(out, "clmeter version") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}
