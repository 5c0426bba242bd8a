-- The shape of a queue schema pg-boss 12.38.0 wrote (schema version 46), reduced to what the
-- move aside reads: the version table and value, the job_state enum, and the job table's columns,
-- partitioned by queue name as pg-boss 12 does. Written for Witness's test from pg-boss 12.38.0's
-- dist/plans.js (createTableVersion, createEnumJobState, createTableJob) and its package.json
-- ("pgboss": { "schema": 46 }); not pg-boss's code.
CREATE SCHEMA pgboss;
CREATE TYPE pgboss.job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
CREATE TABLE pgboss.version (
  version int PRIMARY KEY,
  cron_on timestamptz,
  bam_on timestamptz,
  flow_on timestamptz,
  reindex_on timestamptz,
  monitor_backoff_on timestamptz
);
INSERT INTO pgboss.version (version) VALUES (46);
CREATE TABLE pgboss.job (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  priority integer NOT NULL DEFAULT 0,
  data jsonb,
  state pgboss.job_state NOT NULL DEFAULT 'created',
  retry_limit integer NOT NULL DEFAULT 2,
  retry_count integer NOT NULL DEFAULT 0,
  retry_delay integer NOT NULL DEFAULT 0,
  retry_backoff boolean NOT NULL DEFAULT false,
  retry_delay_max integer,
  expire_seconds int NOT NULL DEFAULT 900,
  deletion_seconds int NOT NULL DEFAULT 604800,
  singleton_key text,
  singleton_on timestamp without time zone,
  group_id text,
  group_tier text,
  start_after timestamptz NOT NULL DEFAULT now(),
  created_on timestamptz NOT NULL DEFAULT now(),
  started_on timestamptz,
  completed_on timestamptz,
  keep_until timestamptz NOT NULL DEFAULT now() + interval '14 days',
  output jsonb,
  dead_letter text,
  policy text,
  heartbeat_on timestamptz,
  heartbeat_seconds int,
  blocked boolean NOT NULL DEFAULT false,
  blocking boolean NOT NULL DEFAULT false,
  pending_dependencies int NOT NULL DEFAULT 0,
  source_name text,
  source_id uuid,
  source_created_on timestamptz,
  source_retry_count int,
  source_output jsonb,
  source_root_id uuid,
  trace_context jsonb,
  upsert_by_key bool
) PARTITION BY LIST (name);
CREATE TABLE pgboss.j_test_a PARTITION OF pgboss.job FOR VALUES IN ('test.a');
CREATE TABLE pgboss.j_test_b PARTITION OF pgboss.job FOR VALUES IN ('test.b');
CREATE TABLE pgboss.j_retired PARTITION OF pgboss.job FOR VALUES IN ('test.retired');
