#!/usr/bin/env bash
# Run Reverie locally on the embedded SQLite database: migrate, seed the demo,
# then serve the web app and the django-q2 worker until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PORT:-8000}"
PY=.venv/bin/python
mkdir -p var
# Development settings for this checkout, read by manage.py (never by the WSGI
# application): so the README's manage.py commands work in a plain shell too.
if [ ! -f var/dev.env ]; then
    umask 077
    printf 'DEBUG=1\nSECRET_KEY=%s\n' "$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')" \
        > var/dev.env.tmp
    mv var/dev.env.tmp var/dev.env
    umask 022
fi

$PY manage.py migrate --no-input -v 0
$PY manage.py sync_schedules
DEMO=$($PY manage.py seed_demo)
TOKEN=$(printf '%s\n' "$DEMO" | sed -n 's/^demo API token.*: //p')
# Reconsolidation is off by default and needs a certificate of its code; the demo
# certifies it with the shipped labelled fixture and switches it on.
RECONSOLIDATION=$($PY manage.py demo_reconsolidation)

# Each in a session of its own, as deploy/serve.sh says why: Ctrl-C or a signal to this
# script's process group stops them through stop(), one main process each.
setsid $PY manage.py qcluster &
QCLUSTER_PID=$!
setsid $PY manage.py runserver "127.0.0.1:${PORT}" --noreload &
WEB_PID=$!

stop() {
    trap - INT TERM EXIT
    # Both children are stopped here, by pid: qcluster shuts down cleanly on SIGTERM.
    kill -TERM "$WEB_PID" "$QCLUSTER_PID" 2>/dev/null || true
    wait "$WEB_PID" "$QCLUSTER_PID" 2>/dev/null || true
}
trap stop INT TERM HUP EXIT

cat <<TXT

Reverie is running:
  operator admin:  http://127.0.0.1:${PORT}/admin/    (operator / demo-operator-password)
  owner review:    http://127.0.0.1:${PORT}/review/   (demo / demo-owner-password)
  REST API:        http://127.0.0.1:${PORT}/api/v1/   (docs: /api/v1/docs/)
  demo API token:  ${TOKEN}
                   export TOKEN=${TOKEN}
  ${RECONSOLIDATION}
                   see it at http://127.0.0.1:${PORT}/review/synthesis/ and /review/operations/
  web server pid ${WEB_PID}, django-q2 cluster pid ${QCLUSTER_PID}
Press Ctrl-C to stop both.

TXT
# Returns when either child exits (or a signal arrives); stop() ends the other.
wait -n "$WEB_PID" "$QCLUSTER_PID"
