# shellcheck shell=bash
# Sourced first by each of the project's dev scripts: how they report progress and errors.
#   DEV_SCRIPT     the name their messages start with (e.g. dev/k8s); set it before sourcing this file
#                  (default: dev/ and the script's file name).
#   DEV_SAY_PLAIN  1: say prints its message alone on stdout, as part of the script's output (dev/services,
#                  whose output is its report); otherwise say prints "$DEV_SCRIPT: message" on stderr.
# die always prints "$DEV_SCRIPT: error: message" on stderr and exits with status 1.

DEV_SCRIPT=${DEV_SCRIPT:-dev/${0##*/}}
DEV_SAY_PLAIN=${DEV_SAY_PLAIN:-0}
DEV_T0=$(date +%s)

say() {
  if [ "$DEV_SAY_PLAIN" = 1 ]; then
    printf '%s\n' "$*"
  else
    printf '%s: %s\n' "$DEV_SCRIPT" "$*" >&2
  fi
}

die() { printf '%s: error: %s\n' "$DEV_SCRIPT" "$*" >&2; exit 1; }

# step MESSAGE: say, with the seconds since the script started, for the steps of a long run.
step() { say "[$(($(date +%s) - DEV_T0)) s] $*"; }
