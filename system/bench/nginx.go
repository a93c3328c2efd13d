package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/template"

	"github.com/prometheus/procfs"

	"github.com/podiumhq/podium/system/stack"
)

// Nginx is a bare reverse proxy in front of one owner: no keys, no limits, the owner's identity
// headers set statically. It is the baseline of what proxying alone costs on this machine.
type Nginx struct {
	URL string
	cmd *exec.Cmd
	dir string
}

var nginxConf = template.Must(template.New("nginx.conf").Parse(`daemon off;
master_process on;
worker_processes {{.Workers}};
pid {{.Dir}}/nginx.pid;
error_log {{.Dir}}/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path {{.Dir}}/body;
    proxy_temp_path {{.Dir}}/proxy;
    fastcgi_temp_path {{.Dir}}/fastcgi;
    uwsgi_temp_path {{.Dir}}/uwsgi;
    scgi_temp_path {{.Dir}}/scgi;
    upstream owner {
        server {{.Upstream}};
        keepalive 64;
    }
    server {
        listen {{.Listen}};
        location / {
            proxy_pass http://owner;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
{{- range $k, $v := .Headers}}
            proxy_set_header {{$k}} "{{$v}}";
{{- end}}
        }
    }
}
`))

// StartNginx runs nginx with workers processes proxying to upstream (host:port), adding
// headers to every request, until Close.
func StartNginx(ctx context.Context, upstream string, headers map[string]string, workers int) (*Nginx, error) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if bin, err = exec.LookPath("/usr/sbin/nginx"); err != nil {
			return nil, errors.New("bench: nginx is not installed (make nginx installs it)")
		}
	}
	dir, err := os.MkdirTemp("", "podium-bench-nginx")
	if err != nil {
		return nil, err
	}
	port, err := stack.FreePort()
	if err != nil {
		return nil, err
	}
	listen := "127.0.0.1:" + strconv.Itoa(port)
	var conf strings.Builder
	if err := nginxConf.Execute(&conf, map[string]any{
		"Dir": dir, "Upstream": upstream, "Listen": listen, "Headers": headers, "Workers": workers,
	}); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf.String()), 0o600); err != nil {
		return nil, err
	}
	n := &Nginx{URL: "http://" + listen, dir: dir}
	n.cmd = exec.CommandContext(ctx, bin, "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log"))
	// Master and workers share a process group, so stopping it leaves no worker behind.
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	n.cmd.Cancel = n.kill
	if err := n.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: nginx: %w", err)
	}
	if err := stack.AwaitListen(ctx, listen, nil); err != nil {
		n.Close()
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return nil, fmt.Errorf("bench: nginx %w: %s", err, log)
	}
	return n, nil
}

// Processes are nginx's master and workers, named nginx, nginx-1, ..., for CPU accounting.
func (n *Nginx) Processes() (map[string]int, error) {
	master := n.cmd.Process.Pid
	out := map[string]int{"nginx": master}
	children, err := childPIDs(master)
	if err != nil {
		return nil, err
	}
	for i, pid := range children {
		out["nginx-"+strconv.Itoa(i+1)] = pid
	}
	return out, nil
}

// Close stops nginx and removes its directory.
func (n *Nginx) Close() {
	_ = n.kill()
	_ = n.cmd.Wait()
	_ = os.RemoveAll(n.dir)
}

// kill stops nginx's master and workers at once.
func (n *Nginx) kill() error {
	return syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
}

// childPIDs lists the processes whose parent is pid, in pid order.
func childPIDs(pid int) ([]int, error) {
	procs, err := procfs.AllProcs()
	if err != nil {
		return nil, err
	}
	var out []int
	for _, p := range procs {
		if stat, err := p.Stat(); err == nil && stat.PPID == pid {
			out = append(out, p.PID)
		}
	}
	return out, nil
}
