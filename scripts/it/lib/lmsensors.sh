# Tests against lm-sensors on fake hwmon trees bind-mounted over /sys/class/hwmon, in a
# private mount namespace (limits-lm-sensors.sh, alarms-lm-sensors.sh). Source after common.sh.

# Checks what such a test needs, then runs the calling script again in a private mount
# namespace (once): its mounts are gone with it. Call as `lmsensors_setup "$@"`.
lmsensors_setup() {
    require_binary
    [ "$(id -u)" = 0 ] || skip "needs root for a private mount namespace"
    need unshare util-linux
    need python3 python3
    need sensors lm-sensors
    if [ -z "${SW_IT_IN_NAMESPACE:-}" ]; then
        export SW_IT_IN_NAMESPACE=1
        exec unshare -m --propagation private bash "$0" "$@"
    fi
}

# Mounts the hwmon tree $1 over /sys/class/hwmon. Containers may have no /sys/class/hwmon
# to mount over: a tmpfs on /sys/class gives one.
mount_hwmon_tree() {
    if [ ! -d /sys/class/hwmon ]; then
        mount -t tmpfs none /sys/class
        mkdir /sys/class/hwmon
    fi
    mount --bind "$1" /sys/class/hwmon
}
