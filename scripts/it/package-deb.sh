#!/usr/bin/env bash
# The Debian package (SPEC §14): `scripts/make-deb.sh` builds it (dist/, unless up to date); its
# contents, modes, conffile and Depends are right; lintian finds no error; the man pages
# render without a warning; and installing, upgrading, removing and purging it in a
# throwaway root (dpkg --root, scripts run chrootless) calls what Debian's daemons call,
# logged by stand-ins for systemctl, deb-systemd-helper and deb-systemd-invoke on PATH.
# journalctl runs for real, confined by --root. The host's /usr, /etc and /var are not
# touched; /run is a private tmpfs (a mount namespace), so the test can pretend systemd runs.
# node_exporter's link on Debian 12's layout (issue 34), with Debian's prometheus-node-exporter
# there before sensorwatch and coming after it (the package's file trigger), and a real
# node_exporter (127.0.0.1:17134, stopped at the end) scraping the metrics through that link.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
require_binary
[ "$(id -u)" = 0 ] || skip "needs root (dpkg --root, a mount namespace)"

# The Debian tools, installed when missing (CI counts a skip as a failure).
need dpkg-shlibdeps dpkg-dev
need lintian lintian
need man man-db
need lexgrog man-db
need groff groff
need systemd-analyze systemd
need curl curl

if [ -z "${SW_IT_IN_NAMESPACE:-}" ]; then
    export SW_IT_IN_NAMESPACE=1
    exec unshare -m --propagation private bash "$0" "$@"
fi
mount -t tmpfs none /run
# Installed here, where /run is empty: its postinst sees no running systemd and starts no
# system node_exporter on the default port (the test starts its own, on 127.0.0.1:17134).
need prometheus-node-exporter prometheus-node-exporter

tmp=$(mktemp -d /tmp/sw-it-deb.XXXXXX)
# Everything this test starts, by PID: lintian, node_exporter, the daemon.
pids=()
stop_started() {
    for p in "${lintian_pid:-}" "${pids[@]}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap stop_started EXIT

# --- build ---------------------------------------------------------------------------------
start=$(date +%s)
# dist/ as `make deb` leaves it; rebuilt only when older than what it is made of.
deb=$("$ROOT/scripts/make-deb.sh" 2>"$tmp/build.log") || { cat "$tmp/build.log"; fail "make-deb.sh failed"; }
version=$("$SENSORWATCH" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "sensorwatch_${version}_${arch}.deb" ] || fail "package is named $(basename "$deb")"
note "built $(basename "$deb"): $(stat -c %s "$deb") bytes in $(($(date +%s) - start)) s"

# lintian takes the longest: it runs meanwhile, and is judged at the end.
lintian --pedantic -I -E "$deb" >"$tmp/lintian" 2>&1 &
lintian_pid=$!

# --- control fields ------------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = sensorwatch ] || fail "Package is $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version $(field Version), binary says $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture $(field Architecture)"
depends=$(field Depends)
note "Depends: $depends"
grep -Eq '(^|, )libc6( |,|$)' <<<"$depends" || fail "Depends lacks libc6: $depends"
grep -q libsystemd0 <<<"$depends" || fail "Depends lacks libsystemd0: $depends"
# libfreeipmi is opened at run time by ipmi sources only (SPEC §23): suggested, not depended on.
grep -q libfreeipmi <<<"$depends" && fail "Depends names libfreeipmi: $depends"
grep -Eq '(^|, )libfreeipmi17( |,|$)' <<<"$(field Suggests)" || fail "Suggests lacks libfreeipmi17: $(field Suggests)"
# mqtt opens libmosquitto with dlopen (SPEC §24): suggested, never a dependency.
grep -q libmosquitto1 <<<"$(field Suggests)" || fail "Suggests lacks libmosquitto1: $(field Suggests)"
! grep -q mosquitto <<<"$depends" || fail "Depends names libmosquitto: $depends"
[ -n "$(field Maintainer)" ] && [ -n "$(field Description)" ] || fail "Maintainer or Description missing"
# apt can install it here: every dependency resolves (a simulation; nothing is installed).
apt-get install -s -o Debug::NoLocking=1 "$deb" 2>&1 | grep -q '^Inst sensorwatch ' \
    || fail "apt-get install -s cannot resolve the package's dependencies"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles)" = /etc/sensorwatch/sensorwatch.json5 ] \
    || fail "conffiles is not exactly /etc/sensorwatch/sensorwatch.json5"
for s in postinst prerm postrm; do
    dpkg-deb --ctrl-tarfile "$deb" | tar -tvf - "./$s" | grep -q '^-rwxr-xr-x root/root' || fail "$s is not 0755 root"
done
# A file trigger: prometheus-node-exporter installed after sensorwatch gets the link too.
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./triggers)" = "interest-noawait /var/lib/prometheus/node-exporter" ] \
    || fail "triggers is not interest-noawait /var/lib/prometheus/node-exporter"

# --- contents: every file with its mode and owner ------------------------------------------
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1, $2, $6}' | sort -k3 >"$tmp/files"
cat >"$tmp/want" <<'EOF'
-rw-r--r-- root/root ./etc/sensorwatch/sensorwatch.json5
-rwxr-xr-x root/root ./usr/bin/sensorwatch
-rwxr-xr-x root/root ./usr/lib/sensorwatch/node-exporter-link
-rw-r--r-- root/root ./usr/lib/systemd/catalog/sensorwatch.catalog
-rw-r--r-- root/root ./usr/lib/systemd/system/sensorwatch-mqtt.service
-rw-r--r-- root/root ./usr/lib/systemd/system/sensorwatch-notify.service
-rw-r--r-- root/root ./usr/lib/systemd/system/sensorwatch.service
-rw-r--r-- root/root ./usr/share/doc/sensorwatch/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/sensorwatch/copyright
-rw-r--r-- root/root ./usr/share/doc/sensorwatch/examples/demo-scenario.json5
-rw-r--r-- root/root ./usr/share/doc/sensorwatch/limits.md
-rw-r--r-- root/root ./usr/share/man/man5/sensorwatch.json5.5.gz
-rw-r--r-- root/root ./usr/share/man/man8/sensorwatch.8.gz
EOF
diff -u "$tmp/want" "$tmp/files" || fail "package contents differ (want, got)"
dpkg-deb -c "$deb" | awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" {print}' | grep . && fail "a directory is not 0755"

x=$tmp/x
dpkg-deb -x "$deb" "$x"
grep -qx 'ExecStart=/usr/bin/sensorwatch run --config /etc/sensorwatch/sensorwatch.json5' \
    "$x/usr/lib/systemd/system/sensorwatch.service" || fail "packaged unit's ExecStart is not /usr/bin/sensorwatch"
grep -qx 'RuntimeDirectory=sensorwatch' "$x/usr/lib/systemd/system/sensorwatch.service" || fail "no RuntimeDirectory="
# The packaged binary looks for no library beside itself (no RUNPATH/RPATH, $ORIGIN or other).
if readelf -d "$x/usr/bin/sensorwatch" | grep -E '\((RUNPATH|RPATH)\)'; then
    fail "packaged binary has a RUNPATH or RPATH"
fi
# Linked as the Makefile says (bench/README.md, "binary size"): all symbols bound at start,
# relative relocations packed (DT_RELR), no dynamic symbol of its own (the Swift symbols
# the static stdlib's -export-dynamic would publish), and within issue 22's 10 MB.
readelf -d "$x/usr/bin/sensorwatch" | grep -q '(FLAGS_1).*NOW' || fail "packaged binary is not bound at start (-z now)"
readelf -d "$x/usr/bin/sensorwatch" | grep -q '(RELR)' || fail "packaged binary has no packed relocations (RELR)"
own=$(readelf --dyn-syms -W "$x/usr/bin/sensorwatch" | awk '$7 != "UND" && $8 ~ /^\$s/' | wc -l)
[ "$own" -eq 0 ] || fail "packaged binary exports $own Swift symbols"
# No Foundation in the binary (issue 22): JSON in and out are our own, and no module imports it.
if nm "$SENSORWATCH" | grep -q 'Foundation'; then fail "the binary links Foundation"; fi
if grep -rlE '^(public |package |internal )?import Foundation(Essentials)?$' "$ROOT/Sources"; then
    fail "a source file imports Foundation"
fi
# The functions are laid out by packaging/symbol-order.txt: most of its names must still be
# the binary's (the built one: the packaged one is stripped), or the layout has gone stale
# (bench/symbol-order.sh writes it anew).
order=$ROOT/packaging/symbol-order.txt
known=$(nm --defined-only "$SENSORWATCH" | awk '{ print $3 }' | sort -u | comm -12 - <(sort -u "$order") | wc -l)
listed=$(sort -u "$order" | wc -l)
[ $((known * 100)) -ge $((listed * 90)) ] \
    || fail "packaging/symbol-order.txt is stale: $known of its $listed names are in the binary (run bench/symbol-order.sh)"
read -r text data _ < <(size "$x/usr/bin/sensorwatch" | tail -1)
[ $((text + data)) -le 10000000 ] || fail "packaged binary is $((text + data)) bytes of text and data (over 10 MB)"
# The packaged unit verifies (its man: pages found where the package puts them, ExecStart
# pointed at the extracted binary) and keeps its exposure.
mkdir -p "$tmp/unit"
sed "s|^ExecStart=/usr/bin/sensorwatch|ExecStart=$x/usr/bin/sensorwatch|" \
    "$x/usr/lib/systemd/system/sensorwatch.service" >"$tmp/unit/sensorwatch.service"
out=$(MANPATH=$x/usr/share/man systemd-analyze verify "$tmp/unit/sensorwatch.service" 2>&1) \
    || fail "systemd-analyze verify of the packaged unit: $out"
[ -z "$out" ] || fail "systemd-analyze verify of the packaged unit is not clean: $out"
exposure=$(systemd-analyze security --offline=yes "$x/usr/lib/systemd/system/sensorwatch.service" 2>&1 \
    | sed -nE 's/.*Overall exposure level.*: ([0-9]+\.[0-9]+).*/\1/p')
awk -v s="${exposure:-99}" 'BEGIN { exit !(s <= 1.0) }' || fail "packaged unit's exposure is ${exposure:-unknown}"
cmp -s "$ROOT/config/sensorwatch.example.json5" "$x/etc/sensorwatch/sensorwatch.json5" \
    || fail "the conffile is not config/sensorwatch.example.json5"
grep -q '"simulated"\|type: *"simulated"' "$x/etc/sensorwatch/sensorwatch.json5" && fail "the conffile has a demo feed"
head -1 "$x/usr/share/doc/sensorwatch/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
    || fail "copyright is not machine-readable"
"$x/usr/bin/sensorwatch" --version | grep -qx "sensorwatch $version" || fail "the packaged (stripped) binary does not run"
"$x/usr/bin/sensorwatch" check --config "$x/etc/sensorwatch/sensorwatch.json5" >/dev/null \
    || fail "the conffile does not check"


# --- man pages -----------------------------------------------------------------------------
for page in usr/share/man/man8/sensorwatch.8.gz usr/share/man/man5/sensorwatch.json5.5.gz; do
    for width in "" 80; do
        out=$(MANWIDTH=$width LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$x/$page" 2>&1 >/dev/null)
        [ -z "$out" ] || fail "man --warnings${width:+ (MANWIDTH=$width)} on $page: $out"
    done
    lexgrog "$x/$page" >/dev/null || fail "lexgrog cannot read the NAME section of $page"
done
# The pages name the version they describe (bump them with the version and the changelog).
for page in man/sensorwatch.8 man/sensorwatch.json5.5; do
    grep -q "^\.TH .* \"sensorwatch $version\"" "$ROOT/$page" || fail "$page's .TH does not say sensorwatch $version"
done
# Every command, and every journal field sensorwatch sends, is in sensorwatch(8).
man8=$(MANWIDTH=200 man -l "$x/usr/share/man/man8/sensorwatch.8.gz" 2>/dev/null)
for word in run check sensors simulate history record --directory --host --since --scenario --plot \
    --duration --interval --output SENSORWATCH_CONFIG STATE_DIRECTORY NOTIFY_SOCKET WATCHDOG_USEC \
    SIGHUP SIGTERM ALERT_PREDICTED sensorwatch_alert_firing /run/sensorwatch/sensorwatch.prom; do
    grep -qF -- "$word" <<<"$man8" || fail "sensorwatch(8) does not mention $word"
done
# ... and every command and option the sources know (their help texts and parsers).
for c in $(grep -ho 'Command(name: "[a-z]*"' "$ROOT/Sources/SensorCLI/CLI.swift" | grep -o '"[a-z]*"' | tr -d '"'); do
    grep -q "^ *$c\b" <<<"$man8" || fail "sensorwatch(8) does not describe the command $c"
done
for o in $(grep -ho -- '"--[a-z][a-z-]*\|  --[a-z][a-z-]*' "$ROOT"/Sources/SensorCLI/*.swift | grep -o -- '--[a-z-]*' | sort -u); do
    grep -qF -- "$o" <<<"$man8" || fail "sensorwatch(8) does not document the option $o"
done
for f in $(grep -o '"[A-Z_]*=' "$ROOT/Sources/SensorSystemd/JournalFields.swift" | tr -d '"=' | sort -u); do
    grep -qw -- "$f" <<<"$man8" || fail "sensorwatch(8) does not document journal field $f"
done
# Every key the configuration and scenario decoders accept is in sensorwatch.json5(5).
man5=$(MANWIDTH=200 man -l "$x/usr/share/man/man5/sensorwatch.json5.5.gz" 2>/dev/null)
keys=$(grep -rhE '((keys|Keys|Kinds)\b.*|^\s*\+ )\[' "$ROOT/Sources/SensorConfig" "$ROOT/Sources/SensorSimulation" | grep -o '"[a-zA-Z]*"' | tr -d '"' | sort -u)
[ -n "$keys" ] || fail "found no configuration keys in the sources"
for k in $keys; do
    grep -qw -- "$k" <<<"$man5" || fail "sensorwatch.json5(5) does not document the key $k"
done
for id in $(grep -o '"[0-9a-f]\{32\}"' "$ROOT/Sources/SensorSystemd/JournalMessageID.swift" | tr -d '"'); do
    grep -q "$id" <<<"$man8" || fail "sensorwatch(8) lacks MESSAGE_ID $id"
done

# --- maintainer scripts in a throwaway root ------------------------------------------------
R=$tmp/root
stubs=$tmp/stubs
calls=$tmp/calls
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers" "$stubs"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
# systemd's own catalog, as on every system (a rebuild with no entries at all keeps the old
# database, so without it removal could not be seen to drop sensorwatch's entries).
install -D -m 0644 /usr/lib/systemd/catalog/systemd.catalog "$R/usr/lib/systemd/catalog/systemd.catalog"
# Stand-ins log their arguments; systemd-tmpfiles and journalctl are logged and then run.
# prometheus-node-exporter's postinst (step 5) is not DPKG_ROOT-aware: its adduser, chown and
# dpkg-statoverride would act on the host, so they are stand-ins too.
real_chown=$(command -v chown)
for cmd in systemctl deb-systemd-helper deb-systemd-invoke invoke-rc.d adduser chown dpkg-statoverride; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 0\n' "$cmd" "$calls" >"$stubs/$cmd"
done
for cmd in journalctl; do
    real=$(command -v "$cmd")
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexec %s "$@"\n' "$cmd" "$calls" "$real" >"$stubs/$cmd"
done
chmod 0755 "$stubs"/*
export PATH=$stubs:$PATH

dpkg_root() {
    : >"$calls"
    dpkg --root="$R" --log="$tmp/dpkg.log" --force-script-chrootless --force-depends \
        --force-confold "$@" >"$tmp/dpkg.out" 2>&1 || { cat "$tmp/dpkg.out"; fail "dpkg $* failed"; }
}
# Shows what the maintainer scripts called, for the log (and the README).
show_calls() { note "$1:"; sed "s|$R|\$DPKG_ROOT|g; s/^/#   /" "$calls"; }
called() { grep -qxF -- "$1" "$calls" || { echo "calls:"; cat "$calls"; fail "expected call: $1"; }; }
not_called() { ! grep -q -- "$1" "$calls" || { echo "calls:"; cat "$calls"; fail "unexpected call: $1"; }; }

# Debian 12 with prometheus-node-exporter: /var/lib/prometheus is the prometheus user's,
# node-exporter/ in it root's — the path systemd-tmpfiles refuses ("unsafe path transition").
prometheus_uid=$(id -u prometheus 2>/dev/null || echo 65534)
debian_node_exporter_dirs() { # ROOT
    mkdir -p "$1/var/lib/prometheus/node-exporter"
    "$real_chown" "$prometheus_uid:$prometheus_uid" "$1/var/lib/prometheus"
    "$real_chown" 0:0 "$1/var/lib/prometheus/node-exporter"
}
debian_node_exporter_dirs "$R"

# 1. First install where systemd does not run (an image build): enabled, not started.
rm -rf /run/systemd
dpkg_root -i "$deb"
show_calls "dpkg -i, systemd not running"
not_called "systemd-tmpfiles"
! grep -qi "unsafe\|tmpfiles" "$tmp/dpkg.out" || { cat "$tmp/dpkg.out"; fail "install said something of tmpfiles"; }
called "journalctl --root=$R --update-catalog"
called "deb-systemd-helper unmask sensorwatch.service"
called "deb-systemd-helper --quiet was-enabled sensorwatch.service"
called "deb-systemd-helper enable sensorwatch.service"
# The notifier is installed disabled (SPEC §17): known to systemd, enabled by nobody.
called "deb-systemd-helper update-state sensorwatch-notify.service"
not_called "enable sensorwatch-notify.service"
# So is the MQTT bridge (SPEC §24).
called "deb-systemd-helper update-state sensorwatch-mqtt.service"
not_called "enable sensorwatch-mqtt.service"
not_called "deb-systemd-invoke"
not_called "systemctl"
[ -x "$R/usr/bin/sensorwatch" ] || fail "dpkg did not install /usr/bin/sensorwatch"
[ "$(readlink "$R/var/lib/prometheus/node-exporter/sensorwatch.prom")" = /run/sensorwatch/sensorwatch.prom ] \
    || fail "postinst did not make the node_exporter link"
[ -s "$R/var/lib/systemd/catalog/database" ] || fail "journalctl --update-catalog made no catalog database"
journalctl --root="$R" --list-catalog 2>/dev/null | grep -q f96e031d73b04032b5e2b8ab87332769 \
    || fail "the catalog database lacks sensorwatch's firing entry"
dpkg --root="$R" -s sensorwatch 2>/dev/null | grep -qx 'Status: install ok installed' || fail "not installed"

# A real node_exporter, as Debian's unit runs it (its textfile directory, here in the
# throwaway root), reads the daemon's metrics through the link.
cat >"$tmp/hot.json5" <<'J'
{ duration: "1h", step: "1s", loop: false, sensors: [ { id: "cpu", quantity: "temperature", label: "CPU", start: 61.5 } ] }
J
cat >"$tmp/c.json5" <<'J'
{ sources: [ { type: "simulated", scenario: "hot.json5", interval: "200ms" } ],
  metrics: { textfile: "/run/sensorwatch/sensorwatch.prom", interval: "1s" }, rules: [] }
J
mkdir -p /run/sensorwatch
STATE_DIRECTORY=$tmp/state RUNTIME_DIRECTORY=/run/sensorwatch "$SENSORWATCH" run --config "$tmp/c.json5" 2>"$tmp/run.log" &
pids+=($!)
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$R/var/lib/prometheus/node-exporter" \
    --web.listen-address=127.0.0.1:17134 >"$tmp/node_exporter.log" 2>&1 &
pids+=($!)
scraped() { curl -sf http://127.0.0.1:17134/metrics >"$tmp/scrape" && grep -q '^sensorwatch_temperature_celsius{.*sensor="sim:cpu".*} 61.5$' "$tmp/scrape"; }
wait_for "node_exporter to serve sensorwatch's metrics through the link" 150 scraped
grep -q '^node_textfile_scrape_error 0$' "$tmp/scrape" || fail "node_exporter: $(grep textfile "$tmp/scrape")"
note "node_exporter on 127.0.0.1:17134 reads $(grep -c '^sensorwatch_' "$tmp/scrape") sensorwatch samples through the link"
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
pids=()

# 2. Reinstall (an upgrade) where systemd runs: restarted, the edited conffile kept.
mkdir -p /run/systemd/system
echo '// edited by the administrator' >>"$R/etc/sensorwatch/sensorwatch.json5"
dpkg_root -i "$deb"
show_calls "dpkg -i again (upgrade), systemd running"
called "systemctl --system daemon-reload"
called "deb-systemd-invoke restart sensorwatch.service"
not_called "deb-systemd-invoke stop"
grep -q 'edited by the administrator' "$R/etc/sensorwatch/sensorwatch.json5" || fail "an upgrade replaced the edited conffile"

# 3. Remove: stopped first, then masked; the link and the catalog entries go, the conffile stays.
dpkg_root -r sensorwatch
show_calls "dpkg -r"
called "deb-systemd-invoke stop sensorwatch.service"
called "systemctl --system daemon-reload"
called "deb-systemd-helper mask sensorwatch.service"
called "journalctl --root=$R --update-catalog"
called "deb-systemd-invoke stop sensorwatch-notify.service"
called "deb-systemd-invoke stop sensorwatch-mqtt.service"
# Both units stopped before either is masked.
[ "$(grep -n 'deb-systemd-invoke stop' "$calls" | tail -1 | cut -d: -f1)" -lt "$(grep -n 'deb-systemd-helper mask' "$calls" | head -1 | cut -d: -f1)" ] \
    || fail "the service was masked before it was stopped"
[ ! -e "$R/usr/bin/sensorwatch" ] || fail "remove left /usr/bin/sensorwatch"
[ ! -L "$R/var/lib/prometheus/node-exporter/sensorwatch.prom" ] || fail "remove left the node_exporter link"
[ -e "$R/etc/sensorwatch/sensorwatch.json5" ] || fail "remove deleted the conffile"
journalctl --root="$R" --list-catalog 2>/dev/null | grep -q f96e031d73b04032b5e2b8ab87332769 \
    && fail "the catalog database still has sensorwatch's entries after remove"

# 4. Purge: systemd's records and the kept alert state go, and the conffile.
mkdir -p "$R/var/lib/private/sensorwatch"
echo '{"version":1,"alerts":[]}' >"$R/var/lib/private/sensorwatch/state.json"
ln -s private/sensorwatch "$R/var/lib/sensorwatch"
dpkg_root -P sensorwatch
show_calls "dpkg -P"
called "deb-systemd-helper purge sensorwatch.service"
called "deb-systemd-helper unmask sensorwatch.service"
[ ! -e "$R/var/lib/private/sensorwatch" ] && [ ! -L "$R/var/lib/sensorwatch" ] || fail "purge left the state directory"
[ ! -e "$R/etc/sensorwatch/sensorwatch.json5" ] || fail "purge left the conffile"
dpkg --root="$R" -s sensorwatch >/dev/null 2>&1 && fail "still known to dpkg after purge"

# 5. prometheus-node-exporter after sensorwatch: no link (and no directory made) at first;
# unpacking Debian's package (its directory) fires sensorwatch's trigger, which links.
R=$tmp/root2
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
rm -rf /run/systemd
dpkg_root -i "$deb"
[ ! -e "$R/var/lib/prometheus" ] || fail "sensorwatch made node_exporter's directory"
(cd "$tmp" && apt-get download prometheus-node-exporter >/dev/null 2>&1) || fail "apt-get download prometheus-node-exporter"
dpkg_root -i "$tmp"/prometheus-node-exporter_*.deb
show_calls "prometheus-node-exporter installed after sensorwatch"
called "adduser --quiet --system --home /var/lib/prometheus --no-create-home --group --gecos Prometheus daemon prometheus"
grep -q '^Processing triggers for sensorwatch' "$tmp/dpkg.out" || { cat "$tmp/dpkg.out"; fail "no trigger for sensorwatch"; }
[ "$(readlink "$R/var/lib/prometheus/node-exporter/sensorwatch.prom")" = /run/sensorwatch/sensorwatch.prom ] \
    || fail "the trigger did not make the node_exporter link"

note "package $(stat -c %s "$deb") bytes, installed $(dpkg-deb -f "$deb" Installed-Size) KiB; maintainer scripts ok"

# --- lintian -------------------------------------------------------------------------------
wait "$lintian_pid" || true
grep -v '^running with root privileges' "$tmp/lintian" | grep -v '^N:' >"$tmp/lintian.tags" || true
note "lintian: $(grep -c '^E:' "$tmp/lintian.tags" || true) errors, $(grep -c '^W:' "$tmp/lintian.tags" || true) warnings," \
    "$(grep -c '^[IP]:' "$tmp/lintian.tags" || true) info/pedantic"
grep -E '^[EW]:' "$tmp/lintian.tags" || true
if grep -q '^E:' "$tmp/lintian.tags"; then fail "lintian reports errors"; fi
