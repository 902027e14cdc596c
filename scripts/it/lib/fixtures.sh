# The shared real sysfs fixtures for integration tests (sourced, never run by itself).

# Prints the root of the node_exporter fixture tree (the directory standing for /sys's
# parent: it holds `sys/`), in place when its symlinks are real symlinks, else rebuilt
# under $1 from its MANIFEST.tsv (a checkout or copy may store the links as files).
node_exporter_fixture() {
    local fixture="$SHARED/fixtures/sysfs/node_exporter_sys"
    if [ -L "$fixture/sys/class/thermal/thermal_zone0" ]; then
        echo "$fixture"
        return
    fi
    python3 - "$fixture" "$1" <<'PY'
import os, sys, shutil
src, dst = sys.argv[1], sys.argv[2]
for line in open(os.path.join(src, "MANIFEST.tsv")):
    f = line.rstrip("\n").split("\t")
    p = os.path.join(dst, f[1])
    if f[0] == "dir": os.makedirs(p, exist_ok=True)
    elif f[0] == "file": shutil.copyfile(os.path.join(src, f[1]), p)
    elif f[0] == "symlink": os.symlink(f[2][3:], p)
PY
    echo "$1"
}
