#!/bin/sh
# API load benchmark: create (if missing), migrate and seed a reverie_load*
# PostgreSQL database, start gunicorn as deploy/serve.sh does on a free loopback
# port, drive /healthz, GET /memories/{id} and recall phase by phase with
# benchmarks/load_api.py, stop gunicorn and print the figures. A second gunicorn
# on the same database runs without access records (benchmarks.unrecorded_settings),
# and every recall phase is paired with one against it, so that the run reports what
# recording each token read costs recall (LOAD_COMPARE_UNRECORDED=0 leaves it out).
# The first server recalls by words alone (REVERIE_EMBEDDINGS=off); a third, on the same
# database, with embeddings on as a deployment runs by default, and its recall phases
# (recall_meaning) are paired with recall's too (LOAD_COMPARE_MEANING=0 leaves it out).
# Extra arguments go to the load generator, e.g.:
#
#   benchmarks/run_load.sh --clients 1,16,64 --duration 10 --rounds 2
#
# Settings (environment): those of benchmarks/load_db.sh (the database, its role,
# the bank's sizes), and WEB_CONCURRENCY (2 gunicorn workers), REVERIE_THREADS (4
# threads each).
# See docs/benchmarks.md ("API load").
set -eu

cd "$(dirname "$0")/.."

LOAD_COMPARE_UNRECORDED="${LOAD_COMPARE_UNRECORDED:-1}"
LOAD_COMPARE_MEANING="${LOAD_COMPARE_MEANING:-1}"
WEB_CONCURRENCY="${WEB_CONCURRENCY:-2}"
REVERIE_THREADS="${REVERIE_THREADS:-4}"
# shellcheck source=benchmarks/load_db.sh
. benchmarks/load_db.sh

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
GUNICORN_VERSION="$("$PYTHON" -c 'import gunicorn; print(gunicorn.__version__)')"
# The deployment's own gunicorn configuration (deploy/gunicorn.conf.py: gthread
# workers with keep-alive), sized by the same variables as deploy/serve.sh.
REVERIE_BIND="127.0.0.1:$PORT"
LOG_LEVEL=WARNING
export REVERIE_BIND WEB_CONCURRENCY REVERIE_THREADS LOG_LEVEL
SERVER_INFO="gunicorn $GUNICORN_VERSION config.wsgi -c deploy/gunicorn.conf.py on $REVERIE_BIND, $WEB_CONCURRENCY workers x $REVERIE_THREADS threads (gthread, keep-alive); DEBUG off; CONN_MAX_AGE $CONN_MAX_AGE; REVERIE_API_RATE=$REVERIE_API_RATE (set so that throttling never triggers)"
SERVER_INFO="$SERVER_INFO; database role $RUNTIME_ROLE; recall by words (REVERIE_EMBEDDINGS=off)"

# gunicorn's and Django's log (a failed request is logged there) go to the file.
log "starting gunicorn on $REVERIE_BIND as role $RUNTIME_ROLE (log: var/load-gunicorn.log)"
DATABASE_URL="$RUNTIME_DATABASE_URL" REVERIE_EMBEDDINGS=off \
"$PYTHON" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py \
    --backlog 2048 >var/load-gunicorn.log 2>&1 &
SERVER_PID=$!
UNRECORDED_PID=""
UNRECORDED=""
MEANING_PID=""
MEANING=""

stop_server() {
    for pid in "$SERVER_PID" $UNRECORDED_PID $MEANING_PID; do
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
    DATABASE_URL="$RUNTIME_DATABASE_URL" REVERIE_EMBEDDINGS=off \
    DJANGO_SETTINGS_MODULE=benchmarks.unrecorded_settings REVERIE_BIND="127.0.0.1:$UNRECORDED_PORT" \
    "$PYTHON" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py \
        --backlog 2048 >var/load-gunicorn-unrecorded.log 2>&1 &
    UNRECORDED_PID=$!
    UNRECORDED="--unrecorded-url http://127.0.0.1:$UNRECORDED_PORT --unrecorded-server-pid $UNRECORDED_PID"
    SERVER_INFO="$SERVER_INFO; recall also against a second such server without access records (benchmarks.unrecorded_settings), phase by phase in turn"
fi

if [ "$LOAD_COMPARE_MEANING" = 1 ]; then
    MEANING_PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    log "starting the gunicorn with embeddings on, on 127.0.0.1:$MEANING_PORT (log: var/load-gunicorn-meaning.log)"
    DATABASE_URL="$RUNTIME_DATABASE_URL" REVERIE_EMBEDDINGS=local REVERIE_BIND="127.0.0.1:$MEANING_PORT" \
    "$PYTHON" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py \
        --backlog 2048 >var/load-gunicorn-meaning.log 2>&1 &
    MEANING_PID=$!
    MEANING="--meaning-url http://127.0.0.1:$MEANING_PORT --meaning-server-pid $MEANING_PID"
    SERVER_INFO="$SERVER_INFO; recall_meaning against a third such server with embeddings on (REVERIE_EMBEDDINGS=local, the default), phase by phase in turn"
fi

status=0
# shellcheck disable=SC2086 # UNRECORDED and MEANING are lists of arguments
"$PYTHON" benchmarks/load_api.py --url "http://127.0.0.1:$PORT" \
    --fixture var/load_fixture.json --wait 60 \
    --server-pid "$SERVER_PID" --server-info "$SERVER_INFO" $UNRECORDED $MEANING "$@" || status=$?
stop_server
exit "$status"
