package deploycheck

import "syscall"

// serverAttr puts a server in its own process group (a terminal's Ctrl-C reaches only the check,
// which stops the servers in order) and has the kernel end it if the check dies without stopping
// it (killed, or by SIGPIPE when its output is cut).
func serverAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
