#!/bin/sh
# Run the recall benchmark in its own PostgreSQL database (created and migrated if
# needed). Extra arguments go to `manage.py benchmark_recall`, e.g.:
#
#   benchmarks/run_recall.sh --sizes 10000 --queries 100
#
# Settings (environment): as in benchmarks/run_in_bench_db.sh; BENCH_DB defaults
# to reverie_bench. See docs/benchmarks.md.
exec "$(dirname "$0")/run_in_bench_db.sh" benchmark_recall reverie_bench "$@"
