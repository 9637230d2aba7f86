-- One-time provisioning of a PostgreSQL database for Reverie, run by a superuser:
--
--   psql -U postgres -d <database> -v role=reverie -f deploy/postgres-provision.sql
--
-- Run it in every database Reverie uses, and in template1 if the test runner
-- will create databases (CI does this).

-- The application role. FORCE row-level security binds it even on the tables
-- it owns, because it is neither a superuser nor BYPASSRLS. CREATEDB is only
-- needed where the test runner creates its own database.
SELECT format('CREATE ROLE %I LOGIN', :'role')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I NOSUPERUSER NOBYPASSRLS', :'role') \gexec

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
