# Helpers for tests that drive a full-screen program in a real terminal: tmux on a private
# server socket (sourced after common.sh; needs `need tmux tmux`). Every wait is wait_for on
# the screen (capture-pane): nothing else marks the moment text appears. A failing test
# shows the screen (on_fail, unless the test has its own).

# Each pane gets a server of its own (new_pane): a new session right after kill-server can
# meet the old server on its way out.
TMUX_BASE=sw-it-$$
TMUX_COUNT=0
TMUX_SERVER=$TMUX_BASE-0
tm() { tmux -L "$TMUX_SERVER" "$@"; }
# The whole screen as text; with -e, with its colours.
screen() { tm capture-pane -t "${PANE:-main}" -p "$@"; }
screen_has() { screen | grep -qF -- "$1"; }
screen_lacks() { ! screen | grep -qF -- "$1"; }
# wait_screen TEXT [TRIES]: until the screen shows TEXT (0.1 s a try, 100 by default);
# wait_screen_gone TEXT [TRIES]: until it does not.
wait_screen() { wait_for "the screen to show '$1'" "${2:-100}" screen_has "$1"; }
wait_screen_gone() { wait_for "the screen to lose '$1'" "${2:-100}" screen_lacks "$1"; }
declare -F on_fail >/dev/null || on_fail() { echo "the screen shows:"; screen; }
# new_pane COLUMNS ROWS COMMAND: a detached session "main" of that size running COMMAND.
new_pane() {
    TMUX_COUNT=$((TMUX_COUNT + 1))
    TMUX_SERVER=$TMUX_BASE-$TMUX_COUNT
    tm new-session -d -s main -x "$1" -y "$2" "$3"
}
stop_tmux() { tm kill-server 2>/dev/null || true; }
