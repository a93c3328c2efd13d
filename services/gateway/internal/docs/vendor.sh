#!/usr/bin/env bash
# Vendors the Redoc release named in REDOC_VERSION: its standalone bundle and its license, from
# the npm package (run by `go generate ./internal/docs` in services/gateway).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(tr -d '[:space:]' < "$here/REDOC_VERSION")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "redoc@$version" >/dev/null && tar xzf "redoc-$version.tgz")
cp "$tmp/package/bundles/redoc.standalone.js" "$here/redoc.standalone.js"
cp "$tmp/package/LICENSE" "$here/redoc.LICENSE"
grep -q "Version: $version" "$here/redoc.standalone.js" || { echo "vendor.sh: bundle is not Redoc $version" >&2; exit 1; }
echo "vendored Redoc $version"
