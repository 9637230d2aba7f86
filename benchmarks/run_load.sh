#!/bin/sh
# API load benchmark: create (if missing), migrate and seed a reverie_load*
# PostgreSQL database, start gunicorn as deploy/serve.sh does on a free loopback
# port, drive /healthz, GET /memories/{id} and recall phase by phase with
# benchmarks/load_api.py, stop gunicorn and print the figures. A second gunicorn
# on the same database runs without access records (benchmarks.unrecorded_settings),
# and every recall phase is paired with one against it, so that the run reports what
# recording each token read costs recall (LOAD_COMPARE_UNRECORDED=0 leaves it out).
# Extra arguments go to the load generator, e.g.:
#
#   benchmarks/run_load.sh --clients 1,16,64 --duration 10 --rounds 2
#
# Settings (environment):
#   PGHOST (127.0.0.1), PGPORT (5432), PGUSER (reverie_owner, the owner role, which
#   migrates and seeds), RUNTIME_ROLE (PGUSER without _owner: the role gunicorn uses)
#   LOAD_DB (reverie_load; must start with reverie_load)
#   LOAD_PRINCIPALS (32), LOAD_BELIEFS (3000 per principal), LOAD_MESSAGES (300),
#   LOAD_FRESH (0; 1 re-seeds every principal)
#   WEB_CONCURRENCY (2 gunicorn workers), REVERIE_THREADS (4 threads each), CONN_MAX_AGE (60)
#   PYTHON (.venv/bin/python)
# See docs/benchmarks.md ("API load").
set -eu

cd "$(dirname "$0")/.."

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-reverie_owner}"
LOAD_DB="${LOAD_DB:-reverie_load}"
LOAD_PRINCIPALS="${LOAD_PRINCIPALS:-32}"
LOAD_BELIEFS="${LOAD_BELIEFS:-3000}"
LOAD_MESSAGES="${LOAD_MESSAGES:-300}"
LOAD_FRESH="${LOAD_FRESH:-0}"
LOAD_COMPARE_UNRECORDED="${LOAD_COMPARE_UNRECORDED:-1}"
WEB_CONCURRENCY="${WEB_CONCURRENCY:-2}"
REVERIE_THREADS="${REVERIE_THREADS:-4}"
# Persistent database connections: without them every request opens one, and
# PostgreSQL spends more CPU on connection start-up than on the requests.
CONN_MAX_AGE="${CONN_MAX_AGE:-60}"
PYTHON="${PYTHON:-.venv/bin/python}"
export PGHOST PGPORT PGUSER

case "$LOAD_DB" in
    reverie_load*) ;;
    *) echo "LOAD_DB must start with reverie_load, got '$LOAD_DB'" >&2; exit 2 ;;
esac

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

if ! psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$LOAD_DB'" | grep -q 1; then
    log "creating database $LOAD_DB"
    createdb "$LOAD_DB"
fi

mkdir -p var
# The server's environment: production settings as behind a TLS-terminating
# proxy (the load generator sends X-Forwarded-Proto: https as that proxy would),
# a throwaway key, loopback only, and a throttle rate no client can reach, so
# that no request is throttled while the throttle's bookkeeping still runs on
# every request.
DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$LOAD_DB"
DEBUG=0
SECRET_KEY="load-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(40))')"
ALLOWED_HOSTS=127.0.0.1
REVERIE_API_RATE=1000000/min
REVERIE_BEHIND_TLS_PROXY=1
export DATABASE_URL DEBUG SECRET_KEY ALLOWED_HOSTS REVERIE_API_RATE CONN_MAX_AGE
export REVERIE_BEHIND_TLS_PROXY

log "migrating $LOAD_DB"
"$PYTHON" manage.py migrate --no-input -v 0
FRESH=""
[ "$LOAD_FRESH" = 1 ] && FRESH="--fresh"
log "seeding $LOAD_PRINCIPALS principals"
# The seeding command is the benchmarks app's, which production settings leave out.
REVERIE_BENCHMARKS=1 "$PYTHON" manage.py seed_load --principals "$LOAD_PRINCIPALS" --beliefs "$LOAD_BELIEFS" \
    --messages "$LOAD_MESSAGES" --out var/load_fixture.json $FRESH

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
GUNICORN_VERSION="$("$PYTHON" -c 'import gunicorn; print(gunicorn.__version__)')"
# The deployment's own gunicorn configuration (deploy/gunicorn.conf.py: gthread
# workers with keep-alive), sized by the same variables as deploy/serve.sh.
REVERIE_BIND="127.0.0.1:$PORT"
LOG_LEVEL=WARNING
export REVERIE_BIND WEB_CONCURRENCY REVERIE_THREADS LOG_LEVEL
SERVER_INFO="gunicorn $GUNICORN_VERSION config.wsgi -c deploy/gunicorn.conf.py on $REVERIE_BIND, $WEB_CONCURRENCY workers x $REVERIE_THREADS threads (gthread, keep-alive); DEBUG off; CONN_MAX_AGE $CONN_MAX_AGE; REVERIE_API_RATE=$REVERIE_API_RATE (set so that throttling never triggers)"

# The server connects as the runtime role, as a deployment's does (the owner
# role above only migrated and seeded): <role> beside <role>_owner.
RUNTIME_ROLE="${RUNTIME_ROLE:-${PGUSER%_owner}}"
SERVER_INFO="$SERVER_INFO; database role $RUNTIME_ROLE"

# gunicorn's and Django's log (a failed request is logged there) go to the file.
log "starting gunicorn on $REVERIE_BIND as role $RUNTIME_ROLE (log: var/load-gunicorn.log)"
DATABASE_URL="postgres://$RUNTIME_ROLE@$PGHOST:$PGPORT/$LOAD_DB" \
"$PYTHON" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py \
    --backlog 2048 >var/load-gunicorn.log 2>&1 &
SERVER_PID=$!
UNRECORDED_PID=""
UNRECORDED=""

stop_server() {
    for pid in "$SERVER_PID" $UNRECORDED_PID; do
        if kill -0 "$pid" 2>/dev/null; then
            log "stopping gunicorn (SIGTERM to $pid)"
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
}
trap stop_server EXIT
trap 'exit 130' INT TERM

if [ "$LOAD_COMPARE_UNRECORDED" = 1 ]; then
    UNRECORDED_PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    log "starting the comparison gunicorn without access records on 127.0.0.1:$UNRECORDED_PORT (log: var/load-gunicorn-unrecorded.log)"
    DATABASE_URL="postgres://$RUNTIME_ROLE@$PGHOST:$PGPORT/$LOAD_DB" \
    DJANGO_SETTINGS_MODULE=benchmarks.unrecorded_settings REVERIE_BIND="127.0.0.1:$UNRECORDED_PORT" \
    "$PYTHON" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py \
        --backlog 2048 >var/load-gunicorn-unrecorded.log 2>&1 &
    UNRECORDED_PID=$!
    UNRECORDED="--unrecorded-url http://127.0.0.1:$UNRECORDED_PORT --unrecorded-server-pid $UNRECORDED_PID"
    SERVER_INFO="$SERVER_INFO; recall also against a second such server without access records (benchmarks.unrecorded_settings), phase by phase in turn"
fi

status=0
# shellcheck disable=SC2086 # UNRECORDED is a list of arguments
"$PYTHON" benchmarks/load_api.py --url "http://127.0.0.1:$PORT" \
    --fixture var/load_fixture.json --wait 60 \
    --server-pid "$SERVER_PID" --server-info "$SERVER_INFO" $UNRECORDED "$@" || status=$?
stop_server
exit "$status"
