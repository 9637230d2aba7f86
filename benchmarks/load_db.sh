# Sourced by benchmarks/run_load.sh and benchmarks/run_recall_cpu.sh, from the
# repository's root: create (if missing), migrate and seed a reverie_load*
# PostgreSQL database, writing var/load_fixture.json, and export the production
# environment a deployment's server has (see below).
#
# Settings (environment):
#   PGHOST (127.0.0.1), PGPORT (5432), PGUSER (reverie_owner, the owner role, which
#   migrates and seeds), RUNTIME_ROLE (PGUSER without _owner: the role the server uses)
#   LOAD_DB (reverie_load; must start with reverie_load)
#   LOAD_PRINCIPALS (32), LOAD_BELIEFS (3000 per principal), LOAD_MESSAGES (300),
#   LOAD_FRESH (0; 1 re-seeds every principal)
#   CONN_MAX_AGE (60), PYTHON (.venv/bin/python)
# It sets LOAD_DB, RUNTIME_ROLE, RUNTIME_DATABASE_URL (the runtime role's URL) and log.

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-reverie_owner}"
LOAD_DB="${LOAD_DB:-reverie_load}"
LOAD_PRINCIPALS="${LOAD_PRINCIPALS:-32}"
LOAD_BELIEFS="${LOAD_BELIEFS:-3000}"
LOAD_MESSAGES="${LOAD_MESSAGES:-300}"
LOAD_FRESH="${LOAD_FRESH:-0}"
# Persistent database connections: without them every request opens one, and
# PostgreSQL spends more CPU on connection start-up than on the requests.
CONN_MAX_AGE="${CONN_MAX_AGE:-60}"
PYTHON="${PYTHON:-.venv/bin/python}"
export PGHOST PGPORT PGUSER

case "$LOAD_DB" in
    reverie_load*) ;;
    *) echo "LOAD_DB must start with reverie_load, got '$LOAD_DB'" >&2; exit 2 ;;
esac

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

if ! psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$LOAD_DB'" | grep -q 1; then
    log "creating database $LOAD_DB"
    createdb "$LOAD_DB"
fi

mkdir -p var
# The server's environment: production settings as behind a TLS-terminating
# proxy (the clients send X-Forwarded-Proto: https as that proxy would),
# a throwaway key, loopback only, and a throttle rate no client can reach, so
# that no request is throttled while the throttle's bookkeeping still runs on
# every request.
DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$LOAD_DB"
DEBUG=0
SECRET_KEY="load-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(40))')"
ALLOWED_HOSTS=127.0.0.1
REVERIE_API_RATE=1000000/min
REVERIE_BEHIND_TLS_PROXY=1
export DATABASE_URL DEBUG SECRET_KEY ALLOWED_HOSTS REVERIE_API_RATE CONN_MAX_AGE
export REVERIE_BEHIND_TLS_PROXY

log "migrating $LOAD_DB"
"$PYTHON" manage.py migrate --no-input -v 0
FRESH=""
[ "$LOAD_FRESH" = 1 ] && FRESH="--fresh"
log "seeding $LOAD_PRINCIPALS principals"
# The seeding command is the benchmarks app's, which production settings leave out.
REVERIE_BENCHMARKS=1 "$PYTHON" manage.py seed_load --principals "$LOAD_PRINCIPALS" --beliefs "$LOAD_BELIEFS" \
    --messages "$LOAD_MESSAGES" --out var/load_fixture.json $FRESH

# The server connects as the runtime role, as a deployment's does (the owner
# role above only migrated and seeded): <role> beside <role>_owner.
RUNTIME_ROLE="${RUNTIME_ROLE:-${PGUSER%_owner}}"
RUNTIME_DATABASE_URL="postgres://$RUNTIME_ROLE@$PGHOST:$PGPORT/$LOAD_DB"
