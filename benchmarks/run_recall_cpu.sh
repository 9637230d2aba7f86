#!/bin/sh
# Where a recall's CPU goes, in one process: create (if missing), migrate and seed
# the load benchmark's reverie_load* database (benchmarks/load_db.sh), then run
# `manage.py benchmark_recall_cpu` against it with the environment the load
# benchmark's server has: production settings (DEBUG off, behind a TLS proxy,
# CONN_MAX_AGE) and the runtime role. A diagnostic, without a target. Extra
# arguments go to the command, e.g.:
#
#   benchmarks/run_recall_cpu.sh --requests 1000 --rounds 5 --profile 25
#
# Settings (environment): those of benchmarks/load_db.sh, and REVERIE_EMBEDDINGS: off
# by default, recall by words as the load benchmark's first server has it; local for
# recall with embeddings on (its query cache's hit rate is printed). See
# docs/benchmarks.md ("API load", "Where the time goes").
set -eu

cd "$(dirname "$0")/.."

# shellcheck source=benchmarks/load_db.sh
. benchmarks/load_db.sh

log "measuring in one process as role $RUNTIME_ROLE"
# The command is the benchmarks app's, which production settings leave out.
DATABASE_URL="$RUNTIME_DATABASE_URL"
REVERIE_BENCHMARKS=1
REVERIE_EMBEDDINGS="${REVERIE_EMBEDDINGS:-off}"
export DATABASE_URL REVERIE_BENCHMARKS REVERIE_EMBEDDINGS
exec "$PYTHON" manage.py benchmark_recall_cpu --fixture var/load_fixture.json "$@"
