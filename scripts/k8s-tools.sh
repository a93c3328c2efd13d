#!/usr/bin/env bash
# Builds the Kubernetes tools of `make deploy-check` from module source into a directory (bin/tools):
#   scripts/k8s-tools.sh <dir> kube-apiserver|kubectl|etcd <version>
# kube-apiserver and kubectl come from k8s.io/kubernetes, which is not meant to be required as a
# module: its go.mod replaces every k8s.io staging module with ./staging/..., so a scratch module
# replaces each of them with its published v0.<minor>.<patch> instead. etcd is a main calling
# etcdmain.Main, as etcd's own binary does. Each binary is stamped with a <name>.version file next
# to it so the Makefile rebuilds when the pinned version changes.
set -euo pipefail

out=$1 tool=$2 version=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
export GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0
cd "$scratch"

case $tool in
kube-apiserver | kubectl)
	go mod init podium.local/k8stools >/dev/null 2>&1
	gomod=$(go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
	staging=${version/#v1./v0.}
	go mod edit -require="k8s.io/kubernetes@$version"
	for m in $(awk '$2 == "=>" && $3 ~ /^\.\/staging\// {print $1}' "$gomod"); do
		go mod edit -replace="$m=$m@$staging"
	done
	printf 'package main\n\nimport _ "k8s.io/kubernetes/cmd/%s"\n' "$tool" >tools.go
	go mod tidy >/dev/null 2>&1 || true
	go build -trimpath -ldflags "-s -w \
		-X k8s.io/component-base/version.gitVersion=$version \
		-X k8s.io/client-go/pkg/version.gitVersion=$version \
		-X k8s.io/component-base/version.gitMajor=1 \
		-X k8s.io/component-base/version.gitMinor=$(echo "$version" | cut -d. -f2)" \
		-o "$out/$tool" "k8s.io/kubernetes/cmd/$tool"
	;;
etcd)
	go mod init podium.local/etcd >/dev/null 2>&1
	cat >main.go <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
	got=$(go get "go.etcd.io/etcd/server/v3@$version" 2>&1) || { echo "$got" >&2; exit 1; }
	go mod tidy >/dev/null
	go build -trimpath -ldflags "-s -w" -o "$out/etcd" .
	;;
*)
	echo "k8s-tools.sh: unknown tool $tool" >&2
	exit 2
	;;
esac
echo "$version" >"$out/$tool.version"
echo "built $out/$tool $version"
