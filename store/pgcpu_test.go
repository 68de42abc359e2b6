package store

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// pgServerCPU returns the CPU time (user and system) used so far by the
// PostgreSQL server st talks to, on this machine: its postmaster, its
// processes now running and those that have ended. A loaded machine slows
// a server's wall time, not (much) its CPU time per row.
func pgServerCPU(ctx context.Context, st *Store) (time.Duration, error) {
	var backend int
	if err := st.db.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return 0, err
	}
	f, err := procStat(backend)
	if err != nil {
		return 0, err
	}
	post, _ := strconv.Atoi(f[1])
	pf, err := procStat(post)
	if err != nil {
		return 0, err
	}
	total := ticks(pf, 11) + ticks(pf, 12) + ticks(pf, 13) + ticks(pf, 14)
	kids, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", post, post))
	if err != nil {
		return 0, err
	}
	for _, k := range strings.Fields(string(kids)) {
		pid, _ := strconv.Atoi(k)
		if kf, err := procStat(pid); err == nil {
			total += ticks(kf, 11) + ticks(kf, 12)
		}
	}
	return time.Duration(total) * time.Second / 100, nil // USER_HZ is 100 on Linux
}

// procStat returns the fields of /proc/PID/stat after the command's name:
// [0] is the state, [1] the parent, [11] utime, [12] stime, [13] cutime,
// [14] cstime.
func procStat(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:]), nil
}

func ticks(f []string, i int) int64 {
	v, _ := strconv.ParseInt(f[i], 10, 64)
	return v
}
