#!/bin/sh
# Create (if missing) and migrate the benchmark database, then run the reconsolidation
# benchmark. Extra arguments go to the command, e.g.:
#
#   benchmarks/run_reconsolidation.sh --sizes 10000,100000
#
# Settings (environment): PGHOST (127.0.0.1), PGPORT (5432), PGUSER (reverie),
# BENCH_DB (reverie_bench_recon; must start with reverie_bench), PYTHON (.venv/bin/python).
# See docs/benchmarks.md.
set -eu

cd "$(dirname "$0")/.."

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-reverie}"
BENCH_DB="${BENCH_DB:-reverie_bench_recon}"
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
# Only for the development SECRET_KEY; the command turns query logging off itself.
export DEBUG=1

"$PYTHON" manage.py migrate --no-input -v 0
exec "$PYTHON" manage.py benchmark_reconsolidation "$@"
