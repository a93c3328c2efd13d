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

// machine names, in a run's CPU times, the time every process on the machine spent.
const machine = "machine"

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

// watchedTimes reads cpuTimes of procs and, when there are any, the machine's (machineBusy)
// under the name machine.
func watchedTimes(procs map[string]int) (map[string]time.Duration, error) {
	out, err := cpuTimes(procs)
	if err != nil || len(procs) == 0 {
		return out, err
	}
	out[machine], err = machineBusy()
	return out, err
}

// machineBusy reads the CPU time all cores spent running anything (user, nice, system, irq and
// softirq in /proc/stat's first line).
func machineBusy() (time.Duration, error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, fmt.Errorf("bench: CPU time of the machine: %w", err)
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, fmt.Errorf("bench: parse /proc/stat: %q", line)
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7} { // user nice system (idle iowait) irq softirq
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("bench: parse /proc/stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}
