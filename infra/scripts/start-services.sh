#!/usr/bin/env bash
# Start a THROWAWAY PostgreSQL and Redis on loopback, for CI (.ci/run) and for developers.
#
#   source infra/scripts/start-services.sh     # exports DATABASE_URL, REDIS_URL, PORTAL_SERVICES_DIR
#   ...run the suites...
#   infra/scripts/stop-services.sh             # stops both by PID and removes their files
#
# or, without sourcing:  eval "$(infra/scripts/start-services.sh)"
#
# Settings (environment):
#   PG_PORT     PostgreSQL port                     (default 5440)
#   REDIS_PORT  Redis port                          (default 6390)
#   PORTAL_DB   extra database created for you      (default portal_ci)
#
# It never touches the machine's own services on 5432/6379. Data lives in a temp directory
# (fsync off: it is thrown away). If a previous run was killed and left its services on our
# ports, they are found through /tmp/portal-services-<PG_PORT>.dir and stopped first.
# Needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) and redis-server; as root it
# runs PostgreSQL as the `postgres` user (initdb refuses root).

_portal_services_start() {
  local pg_port="${PG_PORT:-5440}" redis_port="${REDIS_PORT:-6390}" db="${PORTAL_DB:-portal_ci}"
  local here pointer dir pgbin
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  pointer="${TMPDIR:-/tmp}/portal-services-${pg_port}.dir"

  _ps_say() { echo "[services] $*" >&2; }
  _ps_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

  # --- binaries -------------------------------------------------------------------------
  pgbin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [[ -z "$pgbin" || ! -x "$pgbin/initdb" ]]; then
    if command -v initdb >/dev/null 2>&1; then pgbin="$(dirname "$(command -v initdb)")"; else
      _ps_say "ERROR: PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb)."
      _ps_say "       install them: apt-get install -y --no-install-recommends postgresql"
      return 1
    fi
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    _ps_say "ERROR: redis-server not found. install it: apt-get install -y --no-install-recommends redis-server"
    return 1
  fi
  local as_pg=()
  if [[ "$(id -u)" == 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then
      _ps_say "ERROR: running as root but there is no 'postgres' user to run PostgreSQL as."
      return 1
    fi
    as_pg=(runuser -u postgres --)
  fi

  # --- leftovers of a killed run on our ports -------------------------------------------
  if [[ -f "$pointer" ]]; then
    _ps_say "found leftovers of an earlier run ($(cat "$pointer")); stopping them"
    bash "$here/stop-services.sh" "$(cat "$pointer")" >&2 || true
    rm -f "$pointer"
  fi
  local p
  for p in "$pg_port" "$redis_port"; do
    if _ps_busy "$p"; then
      _ps_say "ERROR: port $p on 127.0.0.1 is already in use by another process."
      _ps_say "       choose others: PG_PORT=... REDIS_PORT=... (now $pg_port / $redis_port)"
      return 1
    fi
  done

  # --- directories ----------------------------------------------------------------------
  dir="$(mktemp -d "${TMPDIR:-/tmp}/portal-services.XXXXXX")" || { _ps_say "ERROR: mktemp failed"; return 1; }
  chmod 755 "$dir"
  mkdir -p "$dir/pg" "$dir/redis"
  if [[ ${#as_pg[@]} -gt 0 ]]; then chown -R postgres: "$dir/pg"; fi
  chmod 700 "$dir/pg"
  echo "$dir" >"$pointer"
  export PORTAL_SERVICES_DIR="$dir"

  # --- PostgreSQL -----------------------------------------------------------------------
  local t0=$SECONDS
  _ps_say "PostgreSQL ($pgbin) -> 127.0.0.1:$pg_port, data in $dir/pg/data"
  if ! "${as_pg[@]}" "$pgbin/initdb" -D "$dir/pg/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
      >"$dir/pg/initdb.log" 2>&1; then
    _ps_say "ERROR: initdb failed; its log ($dir/pg/initdb.log):"; sed 's/^/    /' "$dir/pg/initdb.log" >&2
    bash "$here/stop-services.sh" "$dir" >&2; return 1
  fi
  if ! "${as_pg[@]}" "$pgbin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/postgres.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir/pg -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >"$dir/pg/pg_ctl.log" 2>&1; then
    _ps_say "ERROR: PostgreSQL did not start; its log ($dir/pg/postgres.log):"
    sed 's/^/    /' "$dir/pg/pg_ctl.log" "$dir/pg/postgres.log" >&2 2>/dev/null
    bash "$here/stop-services.sh" "$dir" >&2; return 1
  fi
  if ! "$pgbin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt \
      -c "CREATE DATABASE \"$db\"" >"$dir/pg/createdb.log" 2>&1; then
    _ps_say "ERROR: could not create database $db:"; sed 's/^/    /' "$dir/pg/createdb.log" >&2
    bash "$here/stop-services.sh" "$dir" >&2; return 1
  fi
  _ps_say "PostgreSQL up (pid $(head -n 1 "$dir/pg/data/postmaster.pid"), $((SECONDS - t0))s), databases: postgres, $db"

  # --- Redis ----------------------------------------------------------------------------
  _ps_say "Redis -> 127.0.0.1:$redis_port"
  if ! redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes --save '' --appendonly no \
      --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log" --dir "$dir/redis" >"$dir/redis/start.log" 2>&1; then
    _ps_say "ERROR: redis-server failed to start:"; sed 's/^/    /' "$dir/redis/start.log" "$dir/redis/redis.log" >&2 2>/dev/null
    bash "$here/stop-services.sh" "$dir" >&2; return 1
  fi
  local i reply=''
  for ((i = 0; i < 100; i++)); do
    reply="$( (exec 3<>"/dev/tcp/127.0.0.1/$redis_port" && printf 'PING\r\n' >&3 && read -r -t 2 line <&3 && echo "$line") 2>/dev/null)"
    [[ "$reply" == +PONG* ]] && break
    sleep 0.1
  done
  if [[ "$reply" != +PONG* ]]; then
    _ps_say "ERROR: Redis does not answer PING on 127.0.0.1:$redis_port; its log:"
    sed 's/^/    /' "$dir/redis/redis.log" >&2 2>/dev/null
    bash "$here/stop-services.sh" "$dir" >&2; return 1
  fi
  _ps_say "Redis up (pid $(cat "$dir/redis/redis.pid" 2>/dev/null))"

  export DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/postgres"
  export PORTAL_CI_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/${db}"
  export REDIS_URL="redis://127.0.0.1:${redis_port}"
  cat >"$dir/env.sh" <<EOF
export PORTAL_SERVICES_DIR='$dir'
export DATABASE_URL='$DATABASE_URL'
export PORTAL_CI_DATABASE_URL='$PORTAL_CI_DATABASE_URL'
export REDIS_URL='$REDIS_URL'
EOF
  _ps_say "DATABASE_URL=$DATABASE_URL  REDIS_URL=$REDIS_URL  (stop: infra/scripts/stop-services.sh)"
  return 0
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  # sourced: exports land in the caller's shell
  _portal_services_start
else
  # executed: print the exports for eval
  set -u
  if _portal_services_start; then cat "$PORTAL_SERVICES_DIR/env.sh"; else exit 1; fi
fi
