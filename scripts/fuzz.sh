#!/usr/bin/env bash
# Runs every fuzz target of the workspace for FUZZTIME each (default 30s). `go test` runs one
# -fuzz target per package at a time, so the targets are discovered with `go test -list '^Fuzz'`
# in each package that declares one, and run one after the other. FUZZ narrows them to the
# targets whose name matches an extended regular expression (FUZZ=Webhook). A failing input is
# written to the package's testdata/fuzz/<target>/, where `go test` then runs it as a seed:
# fix the bug and commit the file. An input that finds new code is minimized before fuzzing
# goes on, for up to FUZZMINIMIZETIME (default 5s, not go test's 60s: an input of a target that
# calls services costs milliseconds, and a target stops only once its minimizations are done).
# Exits non-zero if any target failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fuzztime=${FUZZTIME:-30s}
minimizetime=${FUZZMINIMIZETIME:-5s}
only=${FUZZ:-.}
mods=$(go work edit -json | awk -F'"' '/"DiskPath"/ {sub(/^\.\//, "", $4); print $4}')
failed=()
ran=0
for mod in $mods; do
  # Packages whose tests declare a fuzz target; go test -list says which targets they have.
  dirs=$(grep -rl --include='*_test.go' '^func Fuzz' "$mod" | xargs -r -n1 dirname | sort -u)
  for dir in $dirs; do
    pkg=./${dir#"$mod"/}
    [ "$dir" = "$mod" ] && pkg=.
    targets=$(cd "$mod" && go test -list '^Fuzz' "$pkg" | grep '^Fuzz' | grep -E "$only")
    for target in $targets; do
      echo "== $dir $target ($fuzztime)"
      ran=$((ran + 1))
      if ! (cd "$mod" && go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" "$pkg"); then
        failed+=("$dir $target")
      fi
    done
  done
done
echo "== $ran fuzz targets run for $fuzztime each, ${#failed[@]} failed"
for f in "${failed[@]}"; do echo "FAILED: $f"; done
[ ${#failed[@]} -eq 0 ]
