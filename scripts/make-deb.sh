#!/usr/bin/env bash
# Builds dist/sensorwatch_<version>_<arch>.deb with plain dpkg-deb (no debian/ source tree):
# the release binary, unit, tmpfiles.d entry, catalog, example configuration (a conffile),
# man pages, copyright and changelog, with Depends from dpkg-shlibdeps and the maintainer
# scripts of packaging/deb/. `make deb` runs it after `make release`.
#
# Environment: SENSORWATCH (the binary to package, default .build/release/sensorwatch),
# DIST (output directory, default dist), FORCE=1 (rebuild even when the package is newer
# than everything it is made of). Prints the path of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$PWD
bin=${SENSORWATCH:-$root_dir/.build/release/sensorwatch}
dist=${DIST:-$root_dir/dist}
pkg=packaging/deb

# dpkg-shlibdeps comes with dpkg-dev; man-db's lexgrog/man and groff are for the checks.
if ! command -v dpkg-shlibdeps >/dev/null || ! command -v dpkg-deb >/dev/null; then
    echo "installing dpkg-dev" >&2
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y dpkg-dev >&2
fi

[ -x "$bin" ] || { echo "make-deb: no binary at $bin (make release)" >&2; exit 1; }
version=$("$bin" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "make-deb: '$bin --version' printed no version" >&2; exit 1; }
# The Debian changelog's newest entry must name this version (dpkg and lintian read it).
changelog_version=$(sed -n '1s/^sensorwatch (\([^)]*\)).*/\1/p' $pkg/changelog)
if [ "$changelog_version" != "$version" ]; then
    echo "make-deb: $pkg/changelog's newest entry is $changelog_version, the binary is $version;" \
        "add an entry for $version" >&2
    exit 1
fi

out=$dist/sensorwatch_${version}_${arch}.deb
inputs=("$bin" "$0" $pkg/* man/* systemd/sensorwatch.service systemd/sensorwatch-notify.service systemd/sensorwatch-mqtt.service systemd/sensorwatch.catalog
    packaging/node-exporter-link config/sensorwatch.example.json5 config/scenarios/demo.json5)
if [ -z "${FORCE:-}" ] && [ -e "$out" ] && [ -z "$(find "${inputs[@]}" -newer "$out" -print -quit)" ]; then
    echo "make-deb: $out is up to date" >&2
    echo "$out"
    exit 0
fi

# Reproducible: every timestamp is the last commit's (dpkg-deb clamps to SOURCE_DATE_EPOCH).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

work=$root_dir/.build/deb
stage=$work/sensorwatch
rm -rf "$work"
mkdir -p "$stage/DEBIAN"
umask 022

# /usr/bin/sensorwatch, stripped as dh_strip does (the unit's ExecStart points here).
install -D -m 0755 "$bin" "$stage/usr/bin/sensorwatch"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/bin/sensorwatch"

# The unit, with ExecStart at /usr/bin; systemd's catalog; what makes node_exporter's link
# (SPEC §12; postinst runs it, docs/prometheus.md says why it is no tmpfiles.d entry).
install -d -m 0755 "$stage/usr/lib/systemd/system" "$stage/usr/lib/systemd/catalog" \
    "$stage/usr/lib/sensorwatch" "$stage/etc/sensorwatch"
sed -e 's|/usr/local/bin/sensorwatch|/usr/bin/sensorwatch|g' \
    -e 's|^# Installed by `make install`.*|# Installed by the Debian package sensorwatch; override with `systemctl edit sensorwatch`.|' \
    systemd/sensorwatch.service >"$stage/usr/lib/systemd/system/sensorwatch.service"
# The notifier's unit beside it (SPEC §17), enabled by nobody: it needs a notify list first.
sed -e 's|/usr/local/bin/sensorwatch|/usr/bin/sensorwatch|g' \
    -e 's|^# Installed by `make install`.*|# Installed by the Debian package sensorwatch; override with `systemctl edit sensorwatch-notify`.|' \
    systemd/sensorwatch-notify.service >"$stage/usr/lib/systemd/system/sensorwatch-notify.service"
chmod 0644 "$stage/usr/lib/systemd/system/sensorwatch-notify.service"
# The MQTT bridge's unit (SPEC §24), enabled by nobody either: it needs an mqtt section first.
sed -e 's|/usr/local/bin/sensorwatch|/usr/bin/sensorwatch|g' \
    -e 's|^# Installed by `make install`.*|# Installed by the Debian package sensorwatch; override with `systemctl edit sensorwatch-mqtt`.|' \
    systemd/sensorwatch-mqtt.service >"$stage/usr/lib/systemd/system/sensorwatch-mqtt.service"
chmod 0644 "$stage/usr/lib/systemd/system/sensorwatch-mqtt.service"
install -m 0644 systemd/sensorwatch.catalog "$stage/usr/lib/systemd/catalog/sensorwatch.catalog"
install -m 0755 packaging/node-exporter-link "$stage/usr/lib/sensorwatch/node-exporter-link"
chmod 0644 "$stage/usr/lib/systemd/system/sensorwatch.service"

# The administrator's configuration: real sensors only, no demo feed.
install -m 0644 config/sensorwatch.example.json5 "$stage/etc/sensorwatch/sensorwatch.json5"

# Man pages, copyright, changelog and an example scenario, compressed as dh_compress does.
install -D -m 0644 man/sensorwatch.8 "$stage/usr/share/man/man8/sensorwatch.8"
install -D -m 0644 man/sensorwatch.json5.5 "$stage/usr/share/man/man5/sensorwatch.json5.5"
doc=$stage/usr/share/doc/sensorwatch
install -D -m 0644 $pkg/copyright "$doc/copyright"
# A native package (no Debian revision) has changelog.gz; a revisioned one changelog.Debian.gz.
case "$version" in *-*) changelog=changelog.Debian ;; *) changelog=changelog ;; esac
install -m 0644 $pkg/changelog "$doc/$changelog"
install -D -m 0644 config/scenarios/demo.json5 "$doc/examples/demo-scenario.json5"
# The runbook the shipped limit rules point at (config/sensorwatch.example.json5).
install -m 0644 docs/limits.md "$doc/limits.md"
gzip -9n "$stage/usr/share/man/man8/sensorwatch.8" "$stage/usr/share/man/man5/sensorwatch.json5.5" \
    "$doc/$changelog"

# Depends: the shared libraries the binary needs, as the Debian packages that ship them.
mkdir -p "$work/shlibs/debian"
printf 'Source: sensorwatch\n\nPackage: sensorwatch\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/sensorwatch" 2>"$work/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p') \
    || { cat "$work/shlibdeps.log" >&2; exit 1; }
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; cat "$work/shlibdeps.log" >&2; exit 1; }
# notify opens libcurl with dlopen (so only it loads it): dpkg-shlibdeps cannot see that.
depends="$depends, libcurl4"

installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" $pkg/control.in >"$stage/DEBIAN/control"
install -m 0644 $pkg/conffiles $pkg/triggers "$stage/DEBIAN/"
install -m 0755 $pkg/postinst $pkg/prerm $pkg/postrm "$stage/DEBIAN/"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
    | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"

mkdir -p "$dist"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >&2
echo "$out"
