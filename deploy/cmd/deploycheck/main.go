// Command deploycheck is `make deploy-check`: kubeconform validates the rendered manifests
// against the schemas of the pinned Kubernetes version, then a real kube-apiserver and etcd
// (built into bin/tools) read them with a server-side dry-run and strict field validation, in the
// documented order, and judge every pod template against the restricted Pod Security Standard
// (deploy/README.md, "make deploy-check"). It exits 1 when anything is refused, 2 when the check
// could not run; Ctrl-C stops what it started.
//
//	deploycheck -tools ../bin/tools [-manifests k8s]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/podiumhq/podium/deploy/internal/deploycheck"
)

func main() {
	tools := flag.String("tools", "../bin/tools", "directory holding kube-apiserver, kubectl, etcd and kubeconform")
	manifests := flag.String("manifests", "k8s", "the kustomization to check")
	flag.Parse()

	// Output cut short (| head) must not kill the check before it stops what it started.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	res, err := deploycheck.Run(ctx, deploycheck.Config{Tools: *tools, Manifests: *manifests, Out: os.Stdout})
	stop()
	if res != nil {
		fmt.Print(res.Summary())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "deploy-check:", err)
		os.Exit(2)
	}
	if !res.OK() {
		os.Exit(1)
	}
}
