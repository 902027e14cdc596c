#!/usr/bin/env bash
# `make install DESTDIR=… PREFIX=…` puts the binary, unit, catalog and configuration where
# systemd and an administrator expect them; the unit verifies; the binary needs no Swift
# runtime (only libc, libm, libstdc++, libgcc_s and libsystemd).
set -u
. "$(dirname "$0")/../testlib.sh"
dest=$(mktemp -d /tmp/sw-it-install.XXXXXX)
trap 'rm -rf "$dest"' EXIT

make -s install DESTDIR="$dest" PREFIX=/usr >"$dest.log" 2>&1 || { fail "make install failed"; cat "$dest.log"; }
rm -f "$dest.log"
for f in usr/bin/sensorwatch usr/lib/systemd/system/sensorwatch.service \
         usr/lib/systemd/catalog/sensorwatch.catalog etc/sensorwatch/sensorwatch.json5; do
    [ -e "$dest/$f" ] || fail "make install did not install /$f"
done
grep -q '^ExecStart=/usr/bin/sensorwatch run' "$dest/usr/lib/systemd/system/sensorwatch.service" \
    || fail "installed unit's ExecStart does not point at PREFIX"
cmp -s config/sensorwatch.example.json5 "$dest/etc/sensorwatch/sensorwatch.json5" \
    || fail "installed configuration is not config/sensorwatch.example.json5 (no demo feed on real machines)"
"$dest/usr/bin/sensorwatch" check --config "$dest/etc/sensorwatch/sensorwatch.json5" >/dev/null \
    || fail "installed configuration does not check"

# A second install keeps the administrator's configuration.
echo '// edited' >>"$dest/etc/sensorwatch/sensorwatch.json5"
make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
grep -q '// edited' "$dest/etc/sensorwatch/sensorwatch.json5" || fail "install overwrote an edited configuration"

# No Swift runtime needed: the only shared libraries are the C/C++ runtime and libsystemd.
needed=$(readelf -d "$dest/usr/bin/sensorwatch" | awk -F'[][]' '/NEEDED/ {print $2}' | sort | tr '\n' ' ')
for lib in $needed; do
    case "$lib" in
        libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|libsystemd.so.*|ld-linux*) ;;
        *) fail "binary needs $lib" ;;
    esac
done
echo "needed: $needed"

# (systemd-analyze verify of the unit: scripts/it/unit-security.sh.)
finish
