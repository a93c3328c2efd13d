package bench

import (
	"fmt"
	"time"

	"github.com/prometheus/procfs"
)

// machine names, in a run's CPU times, the time every process on the machine spent.
const machine = "machine"

// cpuTimes reads the user plus system CPU time of each process, all threads included.
func cpuTimes(procs map[string]int) (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(procs))
	for name, pid := range procs {
		stat, err := procStat(pid)
		if err != nil {
			return nil, fmt.Errorf("bench: CPU time of %s: %w", name, err)
		}
		out[name] = fromSeconds(stat.CPUTime())
	}
	return out, nil
}

func procStat(pid int) (procfs.ProcStat, error) {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return procfs.ProcStat{}, err
	}
	return p.Stat()
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

// machineBusy reads the CPU time all cores spent running anything: user, nice, system, irq and
// softirq, not idle or waiting for I/O.
func machineBusy() (time.Duration, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, err
	}
	stat, err := fs.Stat()
	if err != nil {
		return 0, fmt.Errorf("bench: CPU time of the machine: %w", err)
	}
	t := stat.CPUTotal
	return fromSeconds(t.User + t.Nice + t.System + t.IRQ + t.SoftIRQ), nil
}

// fromSeconds is s seconds as a duration.
func fromSeconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
