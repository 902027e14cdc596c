#!/usr/bin/env bash
# docs/architecture.md names files by path: each must exist, so the map a newcomer follows
# never points at a file that was moved or removed (issue 35).
set -u
cd "$(dirname "$0")/../.."
doc=docs/architecture.md
[ -f "$doc" ] || { echo "FAIL: no $doc"; exit 1; }
missing=0 named=0
while read -r path; do
    named=$((named + 1))
    [ -e "$path" ] || { echo "FAIL: $doc names $path, which does not exist"; missing=$((missing + 1)); }
done < <(grep -oE '(Sources|Tests|scripts|docs)/[A-Za-z0-9_./+-]+\.(swift|sh|md|c)' "$doc" | sort -u)
[ "$named" -ge 20 ] || { echo "FAIL: $doc names only $named files"; exit 1; }
echo "# $named files named, $missing missing"
[ "$missing" -eq 0 ]
