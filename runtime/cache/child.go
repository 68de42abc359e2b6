package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// A miss's store runs in a detached child process (when Cache.StoreCommand is
// set, as the clmeter command sets it), so that the process that measured
// exits as soon as its work is done: on PoCL, reading a program's binary
// compiles every kernel's work-group function (0.1 s a kernel), which would
// otherwise hold the exit of a script or CI job for seconds.
//
// For each program to store, the process writes a job file (the source, its
// folder, the options) into the cache's jobs folder and takes the job's lock
// (flock, exclusive, without waiting: a lock held means another process stores
// that entry, and this one leaves it). It starts the child in its own session
// with no standard input, output or error, hands it the locks as open files,
// and does not wait. The child (RunStoreJobs) lowers its priority, waits for
// this process to exit (it reads a pipe whose write end only this process
// holds, to EOF; WaitStores closes it early), so that it never slows this
// process's exit, then builds each program from source (PoCL's own kernel cache, shared by the processes of a
// user, already holds what the run compiled, its launches' work-group
// functions included), reads and proves the binary (it must load back with the
// source's kernels: see proof.go) and renames the entry into place;
// it releases each lock when done, and gives up StoreChildLimit after it
// began. So:
// never a partial entry (atomic rename), never two children on one entry (the
// lock), never a zombie (the child is reaped by this process while it lives,
// by init after), and a crash while proving costs only the child. WaitStores
// (clmeter cache wait) waits for the locks; Cache.WaitStore
// (CLMETER_CACHE_STORE_WAIT=1) makes the process wait for its child before it
// exits (tests).

// StoreWaitEnv, set to 1, makes a process wait for its store child before
// it exits; an interrupt during the wait ends the child (Config.WaitStore;
// the command reads it).
const StoreWaitEnv = "CLMETER_CACHE_STORE_WAIT"

// StoreChildLimit bounds a store child's work (from the exit of the process
// that started it): past it, it exits and stores nothing more (the next run's
// miss tries again).
const StoreChildLimit = 5 * time.Minute

// jobsDir is the folder of job files and their locks, beside the entries.
const jobsDir = "jobs"

// A storeJob is what a store child needs to make one entry.
type storeJob struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	Text    string `json:"text"`
	Dir     string `json:"dir"`
	Options string `json:"options"`
	MaxSize int64  `json:"max_size"`
}

func (c *Cache) jobPath(key, ext string) string {
	return filepath.Join(c.Dir, jobsDir, key+ext)
}

// detach hands the pending stores ps to a store child and returns without
// waiting for it (unless WaitStore is set).
func (c *Cache) detach(ctx context.Context, ps []pendingStore) runtime.StoreReport {
	start := time.Now()
	var r runtime.StoreReport
	locks, keys, failed := c.writeJobs(ps)
	r.Failed = failed
	if len(keys) > 0 {
		cmd, done, err := c.startStoreChild(locks, keys)
		if err != nil {
			r.Failed += len(keys)
			c.debugf("no store child: %v", err)
		} else {
			r.Detached = len(keys)
			c.debugf("store of %d entr(ies) handed to child process %d", len(keys), cmd.Process.Pid)
			if c.WaitStore {
				releaseChildren()
				select {
				case <-done:
				case <-ctx.Done():
					cmd.Process.Kill()
					<-done
				}
			}
		}
	}
	r.Took = time.Since(start)
	return r
}

// writeJobs writes the job file of each pending store whose entry is not
// there yet and takes its lock (a store another process holds is left to
// it); it returns the locks and keys of the jobs written, and how many
// failed. The programs are released.
func (c *Cache) writeJobs(ps []pendingStore) (locks []*os.File, keys []string, failed int) {
	for _, p := range ps {
		p.prog.Release()
		if _, err := os.Stat(c.entryPath(p.key)); err == nil {
			continue // stored meanwhile by another process
		}
		f, err := c.lockJob(p.key, false)
		if err != nil {
			c.debugf("not stored %s: %v", p.key[:12], err)
			continue
		}
		if f == nil {
			c.debugf("store %s left to the process storing it already", p.key[:12])
			continue
		}
		job := storeJob{Key: p.key, Name: p.src.Name, Text: p.src.Text, Dir: p.src.Dir, Options: p.options, MaxSize: c.MaxSize}
		b, _ := json.Marshal(job)
		if err := writeJob(c.jobPath(p.key, ".json"), b); err != nil {
			f.Close()
			failed++
			c.debugf("not stored %s: %v", p.key[:12], err)
			continue
		}
		locks = append(locks, f)
		keys = append(keys, p.key)
	}
	return locks, keys, failed
}

// startStoreChild starts the store child of keys, handing it their locks
// (closed here, whether it started or not); done is closed when the child is
// reaped. A child that cannot start leaves no job file.
func (c *Cache) startStoreChild(locks []*os.File, keys []string) (*exec.Cmd, chan struct{}, error) {
	defer func() {
		for _, f := range locks {
			f.Close() // the child holds the locks now
		}
	}()
	// The child starts its work once this process has ended (or waits for
	// it): it reads a pipe whose write end only this process holds, to EOF.
	// So it never competes with this process's own exit for the CPU.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	defer pr.Close()
	cmd := exec.Command(c.StoreCommand[0], append(append([]string{}, c.StoreCommand[1:]...), keys...)...)
	cmd.Env = append(os.Environ(), DirEnv+"="+c.Dir)
	cmd.ExtraFiles = append(locks, pr) // fd 3+i holds keys[i]'s lock; fd 3+len(keys) the pipe
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		for _, k := range keys {
			os.Remove(c.jobPath(k, ".json"))
		}
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }() // reaped while this process lives
	keepMu.Lock()
	keepOpen = append(keepOpen, pw) // closed by the exit, or by WaitStores
	keepMu.Unlock()
	return cmd, done, nil
}

// writeJob writes a job file through a temporary file and a rename, unsynced:
// a job lost to a crash of the machine costs only a miss.
func writeJob(path string, b []byte) error {
	tmp := path + fmt.Sprintf(".tmp-%d", os.Getpid())
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// keepOpen holds the write ends of the store children's pipes until the
// process exits or waits for them (see detach).
var (
	keepMu   sync.Mutex
	keepOpen []*os.File
)

// releaseChildren lets this process's store children start now.
func releaseChildren() {
	keepMu.Lock()
	defer keepMu.Unlock()
	for _, f := range keepOpen {
		f.Close()
	}
	keepOpen = nil
}

// lockJob opens key's job lock and takes it exclusively; wait false returns a
// nil file when another process holds it.
func (c *Cache) lockJob(key string, wait bool) (*os.File, error) {
	if err := os.MkdirAll(filepath.Join(c.Dir, jobsDir), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.jobPath(key, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	if err := flock(f, how); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil
		}
		return nil, err
	}
	return f, nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// heldLock returns the lock of key that this process was handed as file
// descriptor fd, when it is that lock's file; else it takes the lock itself,
// without waiting (nil: another process holds it).
func (c *Cache) heldLock(key string, fd int) *os.File {
	path := c.jobPath(key, ".lock")
	var a, b syscall.Stat_t
	if syscall.Fstat(fd, &a) == nil && syscall.Stat(path, &b) == nil && a.Dev == b.Dev && a.Ino == b.Ino {
		return os.NewFile(uintptr(fd), path)
	}
	f, _ := c.lockJob(key, false)
	return f
}

// RunStoreJobs is the store child's work (see detach): it stores the entries
// of keys in the cache folder dir from their job files, lowering its own
// priority first and waiting for the process that handed them over to exit,
// and exits StoreChildLimit after that at the latest. It returns
// the first job's failure, after trying them all.
func RunStoreJobs(ctx context.Context, dir string, keys []string) error {
	syscall.Setpriority(syscall.PRIO_PROCESS, 0, 19)
	// Wait for the process that handed the jobs over to end (EOF on the
	// pipe after the locks, when it is one: see detach).
	if fd := 3 + len(keys); isPipe(fd) {
		f := os.NewFile(uintptr(fd), "parent")
		io.Copy(io.Discard, f)
		f.Close()
	}
	limit := time.AfterFunc(StoreChildLimit, func() { os.Exit(1) })
	defer limit.Stop()
	ctx, cancel := context.WithTimeout(ctx, StoreChildLimit)
	defer cancel()
	c := New(dir, 0)
	m := runtime.NewManager()
	defer m.Close()
	var first error
	for i, key := range keys {
		if ctx.Err() != nil {
			break
		}
		if err := c.runJob(m, key, 3+i); err != nil && first == nil {
			first = fmt.Errorf("store %s: %w", key[:min(12, len(key))], err)
		}
	}
	return first
}

// runJob makes key's entry from its job file, holding its lock (fd: the
// lock handed by the parent).
func (c *Cache) runJob(m *runtime.Manager, key string, fd int) error {
	if len(key) != 64 || strings.ContainsAny(key, `/\.`) {
		return errors.New("not a cache key")
	}
	lock := c.heldLock(key, fd)
	if lock == nil {
		return nil // another process stores it
	}
	defer func() {
		// The lock file goes before the lock: a process that still opens it
		// finds the entry stored (or stores it again, whole, at worst).
		os.Remove(c.jobPath(key, ".lock"))
		lock.Close()
	}()
	b, err := os.ReadFile(c.jobPath(key, ".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // done by an earlier child
	}
	if err != nil {
		return err
	}
	os.Remove(c.jobPath(key, ".json"))
	var job storeJob
	if err := json.Unmarshal(b, &job); err != nil || job.Key != key {
		return errors.New("bad job file")
	}
	c.MaxSize = job.MaxSize
	if _, err := os.Stat(c.entryPath(key)); err == nil {
		return nil
	}
	devs, err := m.Devices()
	if err != nil {
		return err
	}
	src := runtime.Source{Name: job.Name, Text: job.Text, Dir: job.Dir}
	for _, d := range devs {
		kf, err := KeyFor(d, src, job.Options)
		if err != nil || kf.Key() != key {
			continue
		}
		p, _, err := d.BuildFromSource(src, job.Options)
		if err != nil {
			return err
		}
		defer p.Release()
		_, err = c.proveAndStore(key, kf, src.Name, job.Options, p, d)
		return err
	}
	// The source's includes or the environment changed since the run: its
	// entry cannot be made here.
	return errors.New("no device gives this key now")
}

// isPipe reports whether fd is an open pipe.
func isPipe(fd int) bool {
	var st syscall.Stat_t
	return syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFIFO
}

// WaitStores waits until no store child holds a job lock of this cache (see
// detach), or ctx is done. This process's own store children, which otherwise
// start once it has exited, start at once.
func (c *Cache) WaitStores(ctx context.Context) error {
	releaseChildren() // this process's own children wait for its exit otherwise
	locks, _ := filepath.Glob(filepath.Join(c.Dir, jobsDir, "*.lock"))
	for _, l := range locks {
		f, err := os.Open(l)
		if err != nil {
			continue
		}
		for {
			err = flock(f, syscall.LOCK_SH|syscall.LOCK_NB)
			if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) {
				break
			}
			select {
			case <-ctx.Done():
				f.Close()
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
		f.Close()
	}
	return nil
}
