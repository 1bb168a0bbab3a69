#!/usr/bin/env bash
# Stop the throwaway PostgreSQL and Redis that start-services.sh started, by PID, and remove
# their temp directory.
#
#   infra/scripts/stop-services.sh [DIR]
#
# DIR defaults to $PORTAL_SERVICES_DIR, else to the one recorded for PG_PORT (default 5440) in
# /tmp/portal-services-<PG_PORT>.dir. Safe to run twice: with nothing to stop it does nothing.
# It can also be sourced; then it unsets DATABASE_URL/REDIS_URL if they pointed at these services.

_portal_services_stop() {
  local pointer="${TMPDIR:-/tmp}/portal-services-${PG_PORT:-5440}.dir"
  local dir="${1:-}"
  if [[ -z "$dir" && -n "${PORTAL_SERVICES_DIR:-}" && -d "${PORTAL_SERVICES_DIR:-}" ]]; then dir="$PORTAL_SERVICES_DIR"; fi
  if [[ -z "$dir" && -f "$pointer" ]]; then dir="$(cat "$pointer")"; fi
  [[ -n "$dir" ]] || return 0
  # Only ever act on a directory start-services.sh made.
  case "$(basename "$dir")" in portal-services.*) ;; *) echo "[services] refusing to stop: $dir is not a portal-services dir" >&2; return 1 ;; esac

  # _stop_pid PID NAME SIGNAL: send SIGNAL, wait up to 15 s, then SIGKILL.
  _ps_stop_pid() {
    local pid="$1" name="$2" sig="$3" i
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    echo "[services] stopping $name (pid $pid)" >&2
    kill "-$sig" "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    echo "[services] $name (pid $pid) did not stop in 15 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  }

  if [[ -f "$dir/redis/redis.pid" ]]; then _ps_stop_pid "$(cat "$dir/redis/redis.pid")" redis TERM; fi
  # PostgreSQL's postmaster.pid: first line is the postmaster's PID. SIGINT = fast shutdown.
  if [[ -f "$dir/pg/data/postmaster.pid" ]]; then _ps_stop_pid "$(head -n 1 "$dir/pg/data/postmaster.pid")" postgres INT; fi

  rm -rf "$dir"
  if [[ -f "$pointer" && "$(cat "$pointer")" == "$dir" ]]; then rm -f "$pointer"; fi
  if [[ "${PORTAL_SERVICES_DIR:-}" == "$dir" ]]; then unset PORTAL_SERVICES_DIR DATABASE_URL PORTAL_CI_DATABASE_URL REDIS_URL; fi
  return 0
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  _portal_services_stop "$@"
else
  _portal_services_stop "$@" || exit 1
fi
