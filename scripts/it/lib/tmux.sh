# Helpers for tests that drive a full-screen program in a real terminal: tmux on a private
# server socket (sourced after common.sh; needs `need tmux tmux`). Every wait polls the
# screen (capture-pane) in a bounded loop: nothing else marks the moment text appears.

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
wait_screen() { poll_screen screen_has "never showed" "$@"; }
wait_screen_gone() { poll_screen screen_lacks "still showed" "$@"; }
poll_screen() { # TEST WORDS TEXT [TRIES]
    local i
    for ((i = 0; i < ${4:-100}; i++)); do
        if "$1" "$3"; then return 0; fi
        sleep 0.1
    done
    fail "the screen $2 '$3'; it shows:
$(screen)"
}
# new_pane COLUMNS ROWS COMMAND: a detached session "main" of that size running COMMAND.
new_pane() {
    TMUX_COUNT=$((TMUX_COUNT + 1))
    TMUX_SERVER=$TMUX_BASE-$TMUX_COUNT
    tm new-session -d -s main -x "$1" -y "$2" "$3"
}
stop_tmux() { tm kill-server 2>/dev/null || true; }
