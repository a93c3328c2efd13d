//go:build !linux

package deploycheck

import "syscall"

// serverAttr puts a server in its own process group (a terminal's Ctrl-C reaches only the check,
// which stops the servers in order).
func serverAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
