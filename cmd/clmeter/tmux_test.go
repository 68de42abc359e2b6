package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxServer is a private tmux server (a socket of its own, no
// configuration file, UTF-8 whatever the locale: "µs" stays "µs") with one detached session a pane width, in which
// clmeter commands run one after another, as a person sees them in a
// terminal of that width.
type tmuxServer struct {
	tmux, sock, dir, exe string
	env                  []string
	n                    int
}

// startTmux starts the server with a session for each width (50 rows, a
// long history), its environment env; t's cleanup kills that server only.
func startTmux(t *testing.T, env []string, widths ...int) *tmuxServer {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux: the terminal-width checks need it (Debian: apt-get install tmux; make test-deps)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The socket in a folder of its own, short enough for a socket's path,
	// removed with it (tmux leaves its socket file behind).
	sockDir, err := os.MkdirTemp("", "clmeter-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	s := &tmuxServer{tmux: path, sock: filepath.Join(sockDir, "s"), dir: t.TempDir(), exe: exe, env: env}
	args := []string{"set", "-g", "history-limit", "50000", ";", "set", "-g", "default-shell", "/bin/sh"}
	for _, w := range widths {
		// cat waits on the pane: a session lives while its first window does.
		args = append(args, ";", "new-session", "-d", "-s", "w"+strconv.Itoa(w), "-x", strconv.Itoa(w), "-y", "50", "cat")
	}
	if _, err := s.cmd(append([]string{"start-server", ";"}, args...)...); err != nil {
		t.Fatalf("starting a tmux server: %v", err)
	}
	t.Cleanup(func() { s.cmd("kill-server") })
	return s
}

// cmd runs a tmux command on the server and returns its output.
func (s *tmuxServer) cmd(args ...string) (string, error) {
	c := exec.Command(s.tmux, append([]string{"-u", "-S", s.sock, "-f", os.DevNull}, args...)...)
	c.Env = s.env
	out, err := c.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// shellQuote quotes a for sh.
func shellQuote(a string) string { return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'" }

// paneRun runs clmeter with args in a new pane of the session of width and
// returns the pane as shown (screen: a row a line, a line longer than the
// width on two rows), its lines as written (joined: each wrapped line
// joined back) and the exit status. The pane itself captures its screen
// when clmeter ends, then signals the test.
func (s *tmuxServer) paneRun(width int, args []string) (screen, joined string, code int, err error) {
	s.n++
	base := filepath.Join(s.dir, strconv.Itoa(s.n))
	q := []string{shellQuote(s.exe), "--"}
	for _, a := range args {
		q = append(q, shellQuote(a))
	}
	tm := shellQuote(s.tmux) + " -u -S " + shellQuote(s.sock)
	ch := "done-" + strconv.Itoa(s.n)
	script := strings.Join(q, " ") + "; echo $? >" + base + ".status; " +
		tm + ` capture-pane -p -S - -t "$TMUX_PANE" >` + base + ".screen; " +
		tm + ` capture-pane -p -J -S - -t "$TMUX_PANE" >` + base + ".joined; " + tm + " wait-for -S " + ch
	got, err := s.cmd("new-window", "-d", "-P", "-F", "#{pane_width}", "-t", "=w"+strconv.Itoa(width)+":", script)
	if err != nil {
		return "", "", 0, err
	}
	if strings.TrimSpace(got) != strconv.Itoa(width) {
		return "", "", 0, fmt.Errorf("a pane of %s columns, not %d", strings.TrimSpace(got), width)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	wait := exec.CommandContext(ctx, s.tmux, "-u", "-S", s.sock, "-f", os.DevNull, "wait-for", ch)
	wait.Env = s.env
	if out, err := wait.CombinedOutput(); err != nil {
		return "", "", 0, fmt.Errorf("waiting for the pane: %v %s", err, out)
	}
	read := func(ext string) string {
		b, e := os.ReadFile(base + ext)
		if e != nil && err == nil {
			err = e
		}
		return string(b)
	}
	screen, joined, status := trimPane(read(".screen")), trimPane(read(".joined")), read(".status")
	if err == nil {
		code, err = strconv.Atoi(strings.TrimSpace(status))
	}
	return screen, joined, code, err
}

// trimPane drops the spaces at the ends of a captured pane's lines and its
// empty rows at the bottom.
func trimPane(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// noTerminalEnv is the environment without what tells a width (COLUMNS,
// LINES) or an enclosing tmux, with the test binary running clmeter's main.
func noTerminalEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "COLUMNS", "LINES", "TMUX", "TMUX_PANE", "CLMETER_TEST_MAIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "CLMETER_TEST_MAIN=1")
}

// pipedRun runs clmeter with args with its output piped (no terminal, no
// COLUMNS: 100 columns) and returns stdout and stderr and the exit status.
func pipedRun(exe string, env []string, args []string) (string, int, error) {
	c := exec.Command(exe, append([]string{"--"}, args...)...)
	c.Env = env
	var out strings.Builder
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	if x, ok := err.(*exec.ExitError); ok {
		return out.String(), x.ExitCode(), nil
	}
	return out.String(), 0, err
}
