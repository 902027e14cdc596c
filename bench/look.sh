#!/usr/bin/env bash
# What the look before each poll costs (SPEC §20: a device appearing or going is seen at the
# next poll): sw_dir_fingerprint of a thermal class directory of 12 and of 1000 zones on
# tmpfs, and of the machine's own /sys/class/thermal when it has one, in CPU µs per look
# (getrusage over ROUNDS looks). Needs cc.
set -euo pipefail
ROUNDS=${ROUNDS:-20000}
here=$(cd "$(dirname "$0")" && pwd)
command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }
work=$(mktemp -d /tmp/sensorwatch-look.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
cc -O2 -I "$here/../Sources/CLinux/include" -o "$work/dir-look" "$here/dir-look.c" "$here/../Sources/CLinux/clinux.c"
echo "bench: the look before each poll, CPU per look over $ROUNDS looks"
for n in 12 1000; do
    mkdir -p "$work/tree$n"
    write_thermal_zones "$work/tree$n" "$n"
    read -r us _ < <("$work/dir-look" "$work/tree$n" "$ROUNDS")
    printf '%-40s %8s µs\n' "tmpfs, $n zones" "$us"
done
if [ -d /sys/class/thermal ]; then
    read -r us _ < <("$work/dir-look" /sys/class/thermal "$ROUNDS")
    printf '%-40s %8s µs\n' "/sys/class/thermal ($(ls /sys/class/thermal | wc -l) entries)" "$us"
fi
