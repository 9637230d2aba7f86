#!/bin/sh
# Shared by the run_*.sh benchmark scripts: create (if missing) and migrate a
# benchmark database, then run one benchmark command against it.
#
#   benchmarks/run_in_bench_db.sh COMMAND DEFAULT_DB [ARGS...]
#
# Settings (environment): PGHOST (127.0.0.1), PGPORT (5432), PGUSER (reverie_owner, the owner role),
# BENCH_DB (DEFAULT_DB; must start with reverie_bench), PYTHON (.venv/bin/python).
set -eu

COMMAND="$1"
DEFAULT_DB="$2"
shift 2

cd "$(dirname "$0")/.."

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-reverie_owner}"
BENCH_DB="${BENCH_DB:-$DEFAULT_DB}"
PYTHON="${PYTHON:-.venv/bin/python}"
export PGHOST PGPORT PGUSER

case "$BENCH_DB" in
    reverie_bench*) ;;
    *) echo "BENCH_DB must start with reverie_bench, got '$BENCH_DB'" >&2; exit 2 ;;
esac

if ! psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$BENCH_DB'" | grep -q 1; then
    createdb "$BENCH_DB"
fi

DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$BENCH_DB"
export DATABASE_URL
# Only for the development SECRET_KEY; the commands turn query logging off themselves.
export DEBUG=1

"$PYTHON" manage.py migrate --no-input -v 0
exec "$PYTHON" manage.py "$COMMAND" "$@"
