#!/usr/bin/env bash
# Run Reverie locally on the embedded SQLite database: migrate, seed the demo,
# then serve the web app and the django-q2 worker until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBUG="${DEBUG:-1}"
PORT="${PORT:-8000}"
PY=.venv/bin/python
mkdir -p var

$PY manage.py migrate --no-input -v 0
$PY manage.py sync_schedules
$PY manage.py seed_demo

$PY manage.py qcluster &
QCLUSTER_PID=$!
stop() {
    # qcluster shuts down cleanly on SIGTERM; SIGINT from a script's background
    # job is ignored, so it is stopped here, by pid.
    kill -TERM "$QCLUSTER_PID" 2>/dev/null || true
    wait "$QCLUSTER_PID" 2>/dev/null || true
}
trap stop EXIT

cat <<TXT

Reverie is running:
  operator admin:  http://127.0.0.1:${PORT}/admin/   (operator / demo-operator-password)
  demo owner:      demo / demo-owner-password
  worker:          django-q2 cluster, pid ${QCLUSTER_PID}
Press Ctrl-C to stop both.

TXT
$PY manage.py runserver "127.0.0.1:${PORT}" --noreload
