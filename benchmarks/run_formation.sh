#!/bin/sh
# Run the formation benchmark in its own PostgreSQL database (created and migrated if
# needed). Extra arguments go to `manage.py benchmark_formation`, e.g.:
#
#   benchmarks/run_formation.sh --sessions 200
#
# Settings (environment): as in benchmarks/run_in_bench_db.sh; BENCH_DB defaults
# to reverie_bench. See docs/benchmarks.md.
exec "$(dirname "$0")/run_in_bench_db.sh" benchmark_formation reverie_bench "$@"
