package sizing

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
)

// HostAvailable returns the host's available memory in bytes (MemAvailable of
// /proc/meminfo), or zero where it cannot be read.
func HostAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	return parseMemAvailable(f)
}

// parseMemAvailable reads MemAvailable (in kB) from a /proc/meminfo text.
func parseMemAvailable(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb < 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
