//go:build linux

package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// storeChildren ends the store children of the cache-exit row's misses before
// the next timed process starts, so that none competes with it for the CPU.
// bench makes itself the subreaper of its orphans: a miss's store child
// (detached, in its own session, waiting for the miss to exit) becomes bench's
// child when the miss exits, and end kills it there and reaps it: a pair
// costs its two processes only, not the child's compile of every kernel (on
// PoCL about 0.1 s a kernel). Where the kernel refuses, end waits for the
// child's locks instead ('clmeter cache wait', untimed).
type storeChildren struct{ reaper bool }

func newStoreChildren() *storeChildren {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	return &storeChildren{reaper: errno == 0}
}

// end ends the store child of the miss that used cacheDir.
func (s *storeChildren) end(cacheDir string) error {
	if !s.reaper {
		return waitStores(cacheDir)
	}
	s.reap()
	return nil
}

// reap kills and reaps every process whose parent is bench: between timed
// processes, only the orphaned store children.
func (s *storeChildren) reap() {
	for _, pid := range children() {
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}
}

// close stops being a subreaper and reaps what is left.
func (s *storeChildren) close() {
	if s.reaper {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)
		s.reap()
	}
}

// how says how the row's store children were ended.
func (s *storeChildren) how() string {
	if s.reaper {
		return "each miss's store child killed once the miss has exited (bench is its subreaper)"
	}
	return "each miss's store child awaited before the next process (untimed)"
}

// children lists the processes whose parent is this process (/proc/PID/stat).
func children() []int {
	ents, _ := os.ReadDir("/proc")
	me := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) >= 2 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == me {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
