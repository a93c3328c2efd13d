#!/usr/bin/env bash
# Tidies every workspace module. Workspace modules are unpublished: go.work resolves them, so a
# go.mod lists only external dependencies (a requirement on an unpublished version would break
# the build). `go mod tidy` cannot resolve them either, so each module gets temporary replace
# directives to the local modules, is tidied outside workspace mode, and then has those
# directives and the workspace requirements dropped again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mods=$(go work edit -json | awk -F'"' '/"DiskPath"/ {sub(/^\.\//, "", $4); print $4}')
modpath() { awk '/^module / {print $2; exit}' "$root/$1/go.mod"; }
for mod in ${1:-$mods}; do
  (
    cd "$root/$mod"
    self=$(modpath "$mod")
    rel=$(realpath --relative-to="$root/$mod" "$root")
    for dep in $mods; do
      [ "$(modpath "$dep")" = "$self" ] || go mod edit -replace="$(modpath "$dep")=$rel/$dep"
    done
    trap 'for dep in $mods; do go mod edit -dropreplace="$(modpath "$dep")" -droprequire="$(modpath "$dep")"; done' EXIT
    GOWORK=off GOFLAGS=-mod=mod go mod tidy
  )
done
