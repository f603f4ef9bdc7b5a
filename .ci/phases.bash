# Prepended to the README's script by .ci/run: where CI's time goes. Before each part of the
# README's commands (the venv, each pip install, the demo, each data command, pytest) it prints
# the part and the seconds since the script started on stderr; at the end, the total.
ci_phase() {
    case $1 in
    echo* | sleep* | "["* | cat* | export* | set* | tee* | trap* | "$ci_last_phase") ;;
    *) echo "ci: [${SECONDS} s] $1" >&2 ;;
    esac
    ci_last_phase=$1 # bash enters the EXIT trap naming the last command again
}
ci_last_phase=
trap 'ci_phase "$BASH_COMMAND"' DEBUG
trap 'echo "ci: [${SECONDS} s] the README script ended with exit code $?" >&2' EXIT
