package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the kernel's USER_HZ, the unit of /proc/<pid>/stat times (100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuTimes reads the user plus system CPU time of each process, all threads included.
func cpuTimes(procs map[string]int) (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(procs))
	for name, pid := range procs {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return nil, fmt.Errorf("bench: CPU time of %s: %w", name, err)
		}
		// Fields after the parenthesised command name; utime and stime are fields 14 and 15.
		rest := string(raw[strings.LastIndexByte(string(raw), ')')+2:])
		f := strings.Fields(rest)
		utime, err1 := strconv.ParseInt(f[11], 10, 64)
		stime, err2 := strconv.ParseInt(f[12], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bench: parse /proc/%d/stat", pid)
		}
		out[name] = time.Duration(utime+stime) * clockTick
	}
	return out, nil
}
