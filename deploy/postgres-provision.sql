-- One-time provisioning of a PostgreSQL database for Reverie, run by a superuser:
--
--   psql -U postgres -d <database> -v role=reverie -f deploy/postgres-provision.sql
--
-- Run it in every database Reverie uses, or once in template1 so that every
-- database created afterwards inherits it (CI does this).
--
-- Two roles, neither a superuser nor BYPASSRLS:
--
--   <role>_owner  runs the migrations and owns every table. It is the machine
--                 administrator's role (MIGRATION_DATABASE_URL); it could turn
--                 row security off, which is why the service never uses it.
--   <role>        the runtime role of the web processes and the q2 workers
--                 (DATABASE_URL). It owns nothing: it may read and write rows
--                 (under FORCE row-level security) and nothing else, so it can
--                 neither switch row security off nor drop a policy.

SELECT format('CREATE ROLE %I LOGIN', :'role' || '_owner')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role' || '_owner') \gexec
SELECT format('ALTER ROLE %I NOSUPERUSER NOBYPASSRLS', :'role' || '_owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'role')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE', :'role') \gexec

-- Upgrading from a single application role: its tables pass to the owner role.
SELECT format('REASSIGN OWNED BY %I TO %I', :'role', :'role' || '_owner')
WHERE EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tableowner = :'role') \gexec

-- The owner role creates the schema's tables (PostgreSQL 15 grants CREATE on
-- public to the database owner only).
SELECT format('GRANT CREATE, USAGE ON SCHEMA public TO %I', :'role' || '_owner') \gexec
SELECT format('GRANT USAGE ON SCHEMA public TO %I', :'role') \gexec

-- Whatever the owner role creates, the runtime role may use rows of, and no more.
SELECT format(
    'ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public '
    'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO %I',
    :'role' || '_owner', :'role') \gexec
SELECT format(
    'ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO %I',
    :'role' || '_owner', :'role') \gexec
-- Tables the owner role made before this script ran (an upgrade from one role).
SELECT format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', :'role')
WHERE EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'public') \gexec
SELECT format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', :'role') \gexec

-- Under row-level security PostgreSQL only uses an index for a condition whose
-- operator is LEAKPROOF: anything else must wait until the owner policy has
-- filtered the rows. The full-text match operator (tsvector @@ tsquery) is not
-- marked so, which leaves recall scanning every row of the principal instead
-- of its GIN index. ts_match_vq has no side effects and raises no
-- data-dependent errors for the well-formed queries recall builds, so marking
-- it LEAKPROOF lets the index answer while the policy still decides which rows
-- are returned. Only a superuser may set this flag; the application's system
-- check (memory.W001) warns while it is missing.
ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF;

-- The full-text indexes need btree_gin (one GIN index over owner and text);
-- created here, by a superuser, so that the owner role needs no such right.
CREATE EXTENSION IF NOT EXISTS btree_gin;
