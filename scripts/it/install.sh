#!/usr/bin/env bash
# `make install DESTDIR=… PREFIX=…` puts the binary, unit, catalog, node-exporter-link, man pages
# and configuration where systemd and an administrator expect them, and `make uninstall`
# takes them away again; the binary needs no Swift runtime (only libc, libm, libstdc++,
# libgcc_s and libsystemd).
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
dest=$(mktemp -d /tmp/sw-it-install.XXXXXX)
trap 'rm -rf "$dest"' EXIT

make -s install DESTDIR="$dest" PREFIX=/usr >"$dest.log" 2>&1 || { cat "$dest.log"; fail "make install failed"; }
rm -f "$dest.log"
for f in usr/bin/sensorwatch usr/lib/systemd/system/sensorwatch.service \
         usr/lib/systemd/system/sensorwatch-notify.service usr/lib/systemd/system/sensorwatch-mqtt.service \
         usr/lib/systemd/catalog/sensorwatch.catalog etc/sensorwatch/sensorwatch.json5 \
         usr/lib/sensorwatch/node-exporter-link usr/share/man/man8/sensorwatch.8 \
         usr/share/man/man5/sensorwatch.json5.5 usr/share/doc/sensorwatch/limits.md; do
    [ -e "$dest/$f" ] || fail "make install did not install /$f"
done
grep -q '^ExecStart=/usr/bin/sensorwatch run' "$dest/usr/lib/systemd/system/sensorwatch.service" \
    || fail "installed unit's ExecStart does not point at PREFIX"
grep -q '^ExecStart=/usr/bin/sensorwatch notify --config /etc/sensorwatch/sensorwatch.json5$' \
    "$dest/usr/lib/systemd/system/sensorwatch-notify.service" || fail "installed notify unit's ExecStart"
# Installed disabled: it needs a notify list first.
[ -z "$(find "$dest" -path '*.wants/sensorwatch-notify.service')" ] || fail "make install enabled sensorwatch-notify"
grep -q '^ExecStart=/usr/bin/sensorwatch mqtt --config /etc/sensorwatch/sensorwatch.json5$' \
    "$dest/usr/lib/systemd/system/sensorwatch-mqtt.service" || fail "installed mqtt unit's ExecStart"
[ -z "$(find "$dest" -path '*.wants/sensorwatch-mqtt.service')" ] || fail "make install enabled sensorwatch-mqtt"
cmp -s config/sensorwatch.example.json5 "$dest/etc/sensorwatch/sensorwatch.json5" \
    || fail "installed configuration is not config/sensorwatch.example.json5 (no demo feed on real machines)"
"$dest/usr/bin/sensorwatch" check --config "$dest/etc/sensorwatch/sensorwatch.json5" >/dev/null \
    || fail "installed configuration does not check"
# Every runbook the shipped rules point at is a file the install put there (SPEC §21).
runbooks=$(grep -o '"file://[^"#]*' "$dest/etc/sensorwatch/sensorwatch.json5" | sed 's|^"file://||' | sort -u)
[ -n "$runbooks" ] || fail "the installed configuration's rules have no runbook"
for f in $runbooks; do [ -f "$dest$f" ] || fail "runbook $f is not installed"; done

# A second install keeps the administrator's configuration.
echo '// edited' >>"$dest/etc/sensorwatch/sensorwatch.json5"
make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
grep -q '// edited' "$dest/etc/sensorwatch/sensorwatch.json5" || fail "install overwrote an edited configuration"

# node-exporter-link makes the link node_exporter reads the metrics through (SPEC §12), on
# Debian 12's layout too: /var/lib/prometheus the prometheus user's, node-exporter/ root's —
# where a tmpfiles.d entry fails ("unsafe path transition", issue 34). Nothing without
# node_exporter's directory; never over a file of that name.
[ ! -e "$dest/usr/lib/tmpfiles.d/sensorwatch.conf" ] || fail "make install still installs a tmpfiles.d entry"
DPKG_ROOT=$dest "$dest/usr/lib/sensorwatch/node-exporter-link" || fail "node-exporter-link failed without node_exporter"
[ ! -e "$dest/var/lib/prometheus" ] || fail "node-exporter-link made node_exporter's directory"
mkdir -p "$dest/var/lib/prometheus/node-exporter"
if [ "$(id -u)" = 0 ]; then chown 65534 "$dest/var/lib/prometheus"; fi
DPKG_ROOT=$dest "$dest/usr/lib/sensorwatch/node-exporter-link" 2>"$dest/link.err" || fail "node-exporter-link: $(cat "$dest/link.err")"
[ ! -s "$dest/link.err" ] || fail "node-exporter-link said: $(cat "$dest/link.err")"
[ "$(readlink "$dest/var/lib/prometheus/node-exporter/sensorwatch.prom")" = /run/sensorwatch/sensorwatch.prom ] \
    || fail "node-exporter-link does not link node_exporter's sensorwatch.prom to /run/sensorwatch"
DPKG_ROOT=$dest "$dest/usr/lib/sensorwatch/node-exporter-link" || fail "node-exporter-link is not idempotent"

# uninstall removes what install put in place and keeps the configuration.
make -s uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 || fail "make uninstall failed"
for f in usr/bin/sensorwatch usr/lib/systemd/system/sensorwatch.service usr/lib/systemd/catalog/sensorwatch.catalog \
         usr/lib/systemd/system/sensorwatch-notify.service usr/lib/systemd/system/sensorwatch-mqtt.service \
         usr/lib/sensorwatch/node-exporter-link usr/share/man/man8/sensorwatch.8 usr/share/man/man5/sensorwatch.json5.5 \
         usr/share/doc/sensorwatch/limits.md var/lib/prometheus/node-exporter/sensorwatch.prom; do
    [ ! -e "$dest/$f" ] && [ ! -L "$dest/$f" ] || fail "make uninstall left /$f"
done
[ -e "$dest/etc/sensorwatch/sensorwatch.json5" ] || fail "make uninstall removed the configuration"
make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1

# No Swift runtime needed: the only shared libraries are the C/C++ runtime and libsystemd.
needed=$(readelf -d "$dest/usr/bin/sensorwatch" | awk -F'[][]' '/NEEDED/ {print $2}' | sort | tr '\n' ' ')
for lib in $needed; do
    case "$lib" in
        libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|libsystemd.so.*|ld-linux*) ;;
        *) fail "binary needs $lib" ;;
    esac
done
echo "needed: $needed"
# No RUNPATH or RPATH: libraries are looked up where the system keeps them, never beside the
# binary first ($ORIGIN), where a planted library would run as root.
if readelf -d "$dest/usr/bin/sensorwatch" | grep -E '\((RUNPATH|RPATH)\)'; then
    fail "installed binary has a RUNPATH or RPATH"
fi

# (systemd-analyze verify of the unit: scripts/it/unit-security.sh.)
echo "ok: make install and uninstall put and take the documented files"
