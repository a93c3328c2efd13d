#!/usr/bin/env bash
# Tidies every workspace module. `go mod tidy` cannot resolve unpublished workspace modules, so
# each module gets temporary replace directives pointing at the local modules, is tidied outside
# workspace mode, and has the directives dropped again: committed go.mod files carry none.
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
    trap 'for dep in $mods; do go mod edit -dropreplace="$(modpath "$dep")" 2>/dev/null || true; done' EXIT
    GOWORK=off GOFLAGS=-mod=mod go mod tidy
  )
done
