// Package slurmtest starts a private Slurm cluster for tests: its own munged
// (own key and socket), slurmctld and one or more logical slurmd nodes on one
// host, all in the foreground from a temporary folder and on loopback only,
// and stops exactly the processes it started, by process id. Every Slurm
// client call it makes has a time-out, since a client hangs for minutes while
// munged or slurmctld is away.
package slurmtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ClientTimeout bounds every Slurm client call (sbatch, squeue, sinfo,
// scontrol, scancel, srun without its own bound).
const ClientTimeout = 30 * time.Second

// readyTimeout bounds the wait for the cluster's nodes to become idle (about
// 1 s on a quiet machine).
const readyTimeout = 90 * time.Second

// Packages are the Debian packages the cluster needs (make test-deps
// installs them).
const Packages = "slurm-wlm munge slurmctld slurmd slurm-client"

// A Cluster is a running private Slurm cluster.
type Cluster struct {
	// Dir is the cluster's temporary folder (configuration, state, logs).
	Dir string
	// Conf is the path of its slurm.conf (SLURM_CONF in Env).
	Conf string
	// Nodes are the logical node names, n1, n2, ...
	Nodes []string
	// Host is the machine's short host name, every logical node's host.
	Host  string
	procs []*proc
}

// proc is one daemon this package started.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// Installed reports whether the daemons and clients are on this machine.
func Installed() bool {
	for _, b := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel", "srun"} {
		if _, err := lookPath(b); err != nil {
			return false
		}
	}
	return true
}

// lookPath finds a program on PATH or in /usr/sbin (where Debian puts the
// daemons, not always on a user's PATH).
func lookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := filepath.Join("/usr/sbin", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is not installed (Debian: apt-get install --no-install-recommends %s; make test-deps does)", name, Packages)
	}
	return p, nil
}

// Start starts a cluster of nodes logical nodes and stops it when t ends.
// Without Slurm installed the test is skipped, except under CI (CI set),
// where make test-deps installs it and its absence is a failure.
func Start(t testing.TB, nodes int) *Cluster {
	t.Helper()
	if !Installed() {
		if os.Getenv("CI") == "" {
			t.Skipf("Slurm is not installed (Debian: apt-get install --no-install-recommends %s; make test-deps does)", Packages)
		}
		t.Fatalf("Slurm is not installed: make test-deps installs %s", Packages)
	}
	c, err := StartCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

// StartCluster starts munged, slurmctld and the logical slurmd nodes and
// waits until every node is idle. On an error everything it started is
// stopped again.
func StartCluster(nodes int) (*Cluster, error) {
	if nodes < 1 {
		return nil, fmt.Errorf("slurmtest: %d nodes: want at least 1", nodes)
	}
	dir, err := os.MkdirTemp("", "clmeter-slurm-")
	if err != nil {
		return nil, err
	}
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Host: strings.SplitN(host, ".", 2)[0]}
	for i := range nodes {
		c.Nodes = append(c.Nodes, fmt.Sprintf("n%d", i+1))
	}
	if err := c.start(); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start() error {
	// munged refuses the 0700 folder MkdirTemp makes: its socket's folder
	// must be readable by every user.
	for _, d := range []string{c.Dir, c.path("munge")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	for _, d := range []string{"state", "spool", "log", "out"} {
		if err := os.Mkdir(c.path(d), 0o755); err != nil {
			return err
		}
	}
	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(c.path("munge", "munge.key"), key, 0o600); err != nil {
		return err
	}
	if err := c.startMunge(); err != nil {
		return err
	}
	conf, err := c.config()
	if err != nil {
		return err
	}
	if err := os.WriteFile(c.Conf, []byte(conf), 0o644); err != nil {
		return err
	}
	if err := c.daemon("slurmctld", "slurmctld", "-D", "-f", c.Conf); err != nil {
		return err
	}
	for _, n := range c.Nodes {
		if err := c.daemon("slurmd "+n, "slurmd", "-D", "-N", n, "-f", c.Conf); err != nil {
			return err
		}
	}
	return c.waitIdle()
}

func (c *Cluster) path(elem ...string) string {
	return filepath.Join(append([]string{c.Dir}, elem...)...)
}

// startMunge starts munged on the cluster's own socket and key and waits for
// its socket.
func (c *Cluster) startMunge() error {
	m := c.path("munge")
	err := c.daemon("munged", "munged", "-F", "--force", "--socket="+filepath.Join(m, "sock"),
		"--key-file="+filepath.Join(m, "munge.key"), "--pid-file="+filepath.Join(m, "pid"),
		"--log-file="+filepath.Join(m, "log"), "--seed-file="+filepath.Join(m, "seed"))
	if err != nil {
		return err
	}
	p := c.procs[len(c.procs)-1]
	for deadline := time.Now().Add(readyTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(m, "sock")); err == nil {
			return nil
		}
		select {
		case <-p.done:
			return c.failed(p, "exited before it made its socket")
		default:
		}
	}
	return c.failed(p, "made no socket")
}

// config is the cluster's slurm.conf: every address on loopback, no cgroups,
// no accounting, no mail, each logical node on a free port of its own.
func (c *Cluster) config() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	ports, err := freePorts(1 + len(c.Nodes))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterName=clmetertest\nSlurmctldHost=%s(127.0.0.1)\nSlurmctldPort=%d\n", c.Host, ports[0])
	fmt.Fprintf(&b, "SlurmUser=%s\nSlurmdUser=%s\n", u.Username, u.Username)
	fmt.Fprintf(&b, "AuthType=auth/munge\nAuthInfo=socket=%s\nCredType=cred/munge\n", c.path("munge", "sock"))
	fmt.Fprintf(&b, "StateSaveLocation=%s\nSlurmdSpoolDir=%s\n", c.path("state"), c.path("spool", "%n"))
	fmt.Fprintf(&b, "SlurmctldPidFile=%s\nSlurmdPidFile=%s\n", c.path("slurmctld.pid"), c.path("slurmd.%n.pid"))
	fmt.Fprintf(&b, "SlurmctldLogFile=%s\nSlurmdLogFile=%s\n", c.path("log", "slurmctld.log"), c.path("log", "slurmd.%n.log"))
	b.WriteString("SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nProctrackType=proctrack/linuxproc\n")
	b.WriteString("TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n")
	b.WriteString("MailProg=/bin/true\nReturnToService=2\nSchedulerType=sched/backfill\nMinJobAge=300\n")
	for i, n := range c.Nodes {
		fmt.Fprintf(&b, "NodeName=%s NodeHostname=%s NodeAddr=127.0.0.1 Port=%d CPUs=%d State=UNKNOWN\n", n, c.Host, ports[1+i], goruntime.NumCPU())
	}
	fmt.Fprintf(&b, "PartitionName=test Nodes=%s Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES\n", strings.Join(c.Nodes, ","))
	return b.String(), nil
}

// freePorts returns n distinct free ports of 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// daemon starts one daemon in the foreground, its output in log/NAME.out.
func (c *Cluster) daemon(name, prog string, args ...string) error {
	bin, err := lookPath(prog)
	if err != nil {
		return err
	}
	logPath := c.path("log", strings.ReplaceAll(name, " ", "-")+".out")
	f, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env()
	cmd.Stdout, cmd.Stderr = f, f
	// A group of its own: a Ctrl-C meant for the test reaches the daemons
	// only through Stop.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("slurmtest: starting %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	c.procs = append(c.procs, p)
	return nil
}

// failed is the error of a daemon that did not come up, with its log's end.
func (c *Cluster) failed(p *proc, what string) error {
	out, _ := os.ReadFile(p.log)
	if len(out) > 2000 {
		out = out[len(out)-2000:]
	}
	return fmt.Errorf("slurmtest: %s %s; its output:\n%s", p.name, what, out)
}

// Env is the environment of every daemon and client call: SLURM_CONF names
// the cluster's configuration; PATH keeps /usr/sbin.
func (c *Cluster) Env() []string {
	env := []string{"SLURM_CONF=" + c.Conf, "PATH=" + os.Getenv("PATH") + ":/usr/sbin", "LC_ALL=C", "HOME=" + os.Getenv("HOME")}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	return env
}

// Run runs a Slurm client program with the cluster's environment and a
// time-out (ClientTimeout when timeout is 0) and returns its output.
func (c *Cluster) Run(timeout time.Duration, prog string, args ...string) (string, error) {
	if timeout == 0 {
		timeout = ClientTimeout
	}
	bin, err := lookPath(prog)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env()
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.String(), fmt.Errorf("slurmtest: %s %s: no answer in %v", prog, strings.Join(args, " "), timeout)
	}
	if err != nil {
		return out.String(), fmt.Errorf("slurmtest: %s %s: %v: %s", prog, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

// waitIdle waits until sinfo shows every node idle.
func (c *Cluster) waitIdle() error {
	var last string
	for deadline := time.Now().Add(readyTimeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, p := range c.procs {
			select {
			case <-p.done:
				return c.failed(p, "exited while the cluster started")
			default:
			}
		}
		out, err := c.Run(5*time.Second, "sinfo", "-h", "-N", "-o", "%N %T")
		if err != nil {
			last = err.Error()
			continue
		}
		last = out
		idle := 0
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[1] == "idle" {
				idle++
			}
		}
		if idle == len(c.Nodes) {
			return nil
		}
	}
	return fmt.Errorf("slurmtest: the nodes were not idle after %v; sinfo said: %s", readyTimeout, last)
}

// Stop cancels the cluster's jobs, stops the daemons it started (each by its
// process id, munged last: clients and daemons hang while it is away) and
// removes the folder.
func (c *Cluster) Stop() {
	if len(c.procs) > 1 {
		if out, err := c.Run(10*time.Second, "squeue", "-h", "-o", "%A"); err == nil && strings.TrimSpace(out) != "" {
			c.Run(10*time.Second, "scancel", strings.Fields(out)...)
			c.WaitEmpty(30 * time.Second)
		}
	}
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
	}
	c.procs = nil
	os.RemoveAll(c.Dir)
}

// Sbatch submits a batch job (sbatch --parsable ARGS) and returns its job id.
func (c *Cluster) Sbatch(args ...string) (string, error) {
	out, err := c.Run(0, "sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(out)
	if i := strings.IndexByte(id, ';'); i >= 0 {
		id = id[:i]
	}
	if id == "" {
		return "", errors.New("slurmtest: sbatch printed no job id")
	}
	return id, nil
}

// WaitEmpty waits until squeue lists no job, up to limit.
func (c *Cluster) WaitEmpty(limit time.Duration) error {
	var last string
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := c.Run(10*time.Second, "squeue", "-h", "-o", "%i %T")
		if err != nil {
			last = err.Error()
			continue
		}
		if last = strings.TrimSpace(out); last == "" {
			return nil
		}
	}
	return fmt.Errorf("slurmtest: jobs still queued after %v: %s", limit, last)
}

// Log returns the end of a daemon's log files (slurmctld.log, slurmd.NODE.log
// and their foreground output), for a failing test's message.
func (c *Cluster) Log() string {
	var b strings.Builder
	files, _ := filepath.Glob(c.path("log", "*"))
	for _, f := range files {
		out, _ := os.ReadFile(f)
		if len(out) > 1500 {
			out = out[len(out)-1500:]
		}
		fmt.Fprintf(&b, "== %s\n%s\n", filepath.Base(f), out)
	}
	return b.String()
}

// JobStates returns the state of each task of a job, keyed by its array
// index ("" for a job that is no array), from scontrol show job.
func (c *Cluster) JobStates(id string) (map[string]string, error) {
	out, err := c.Run(0, "scontrol", "-o", "show", "job", id)
	if err != nil {
		return nil, err
	}
	states := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var task, state string
		for _, f := range strings.Fields(l) {
			if v, ok := strings.CutPrefix(f, "ArrayTaskId="); ok {
				task = v
			} else if v, ok := strings.CutPrefix(f, "JobState="); ok {
				state = v
			}
		}
		if state != "" {
			states[task] = state
		}
	}
	return states, nil
}

// WaitJob waits until no task of job id is pending, running or completing,
// up to limit, and returns the tasks' final states.
func (c *Cluster) WaitJob(id string, limit time.Duration) (map[string]string, error) {
	var states map[string]string
	var err error
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if states, err = c.JobStates(id); err != nil {
			continue
		}
		busy := false
		for _, s := range states {
			switch s {
			case "PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED", "RESIZING", "SUSPENDED":
				busy = true
			}
		}
		if !busy && len(states) > 0 {
			return states, nil
		}
	}
	if err != nil {
		return states, err
	}
	return states, fmt.Errorf("slurmtest: job %s not done after %v: %v", id, limit, states)
}
