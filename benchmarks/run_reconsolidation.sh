#!/bin/sh
# Run the reconsolidation benchmark in its own PostgreSQL database (created and migrated if
# needed). Extra arguments go to `manage.py benchmark_reconsolidation`, e.g.:
#
#   benchmarks/run_reconsolidation.sh --sizes 10000,100000
#
# Settings (environment): as in benchmarks/run_in_bench_db.sh; BENCH_DB defaults
# to reverie_bench_recon. See docs/benchmarks.md.
exec "$(dirname "$0")/run_in_bench_db.sh" benchmark_reconsolidation reverie_bench_recon "$@"
