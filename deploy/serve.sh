#!/usr/bin/env bash
# Run Reverie in production: gunicorn (deploy/gunicorn.conf.py) and the django-q2
# cluster, with production settings, against PostgreSQL as the runtime role.
#
#   DATABASE_URL=postgres://reverie@db:5432/reverie \
#   MIGRATION_DATABASE_URL=postgres://reverie_owner@db:5432/reverie \
#   SECRET_KEY=... ALLOWED_HOSTS=memory.example.com REVERIE_BEHIND_TLS_PROXY=1 \
#   deploy/serve.sh
#
# With MIGRATION_DATABASE_URL set it migrates first, as the owner role. It then
# collects static files (served by WhiteNoise), syncs the schedules and runs
# both processes until either stops or it gets SIGTERM/SIGINT, which it passes
# on to both. Set REDIS_URL to use Redis as the broker and the shared cache (without it
# the sign-in counters are shared through the database). A proxy not on loopback goes in
# REVERIE_TRUSTED_PROXIES as well as FORWARDED_ALLOW_IPS.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL to a postgres:// URL of the runtime role}"
: "${SECRET_KEY:?set SECRET_KEY}"
PY="${PYTHON:-.venv/bin/python}"
# Never the development settings `make run` leaves in var/dev.env.
export REVERIE_ENV_FILE=""
unset DEBUG

if [ -n "${MIGRATION_DATABASE_URL:-}" ]; then
    "$PY" manage.py migrate --no-input -v 0
fi
"$PY" manage.py collectstatic --no-input -v 0
"$PY" manage.py sync_schedules >/dev/null

# Each in a session of its own, so that a signal sent to this script's whole process
# group (a service manager's stop, `kill -- -PGID`) reaches them only through stop(),
# one main process each: sent straight to django-q2's sentinel as well, SIGTERM kills
# it mid-handshake and leaves the cluster's main process waiting for it forever.
# (systemd: KillMode=mixed, so that the stop signal goes to this script alone.)
setsid "$PY" manage.py qcluster &
QCLUSTER_PID=$!
setsid "$PY" -m gunicorn config.wsgi:application -c deploy/gunicorn.conf.py &
WEB_PID=$!

stop() {
    trap - INT TERM EXIT
    kill -TERM "$WEB_PID" "$QCLUSTER_PID" 2>/dev/null || true
    wait "$WEB_PID" "$QCLUSTER_PID" 2>/dev/null || true
}
trap stop INT TERM HUP EXIT
echo "reverie serving on ${REVERIE_BIND:-127.0.0.1:8000}: gunicorn pid $WEB_PID, qcluster pid $QCLUSTER_PID"
wait -n "$WEB_PID" "$QCLUSTER_PID"
