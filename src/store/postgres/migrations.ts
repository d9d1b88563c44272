/**
 * PostgreSQL schema, one entry per version, recorded in schema_migrations.
 * Migrations run under a session advisory lock, so instances starting at once
 * wait for each other and each version is applied exactly once; each version
 * is applied in its own transaction (all or nothing).
 */
import { KEY_LIFE_POSTGRES, KEY_ROLLS_POSTGRES } from './key-life-migration.ts';
import type pg from 'pg';
import { exec, LOCK_KEY_SQL, rows, withOwnConnection, type PoolOptions } from './pg-client.ts';
import { indexExistingCodes, POSTGRES_SEARCH_SCHEMA, refoldSearchRows } from './search.ts';
import { POSTGRES_SYSTEMS_SCHEMA } from './systems.ts';
import { ADDED_WITH_SEARCH, BEFORE_SEARCH, planUpgradePostgres } from '../plan-upgrade.ts';
import { INDEX_COLUMNS_POSTGRES, migrateNavigation } from './navigation-migration.ts';

/** SQL, or a function for a migration that must compute in JavaScript (it runs in the same transaction). */
export type PostgresMigration = string | ((client: pg.Client) => Promise<void>);

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  // 1: settings, codes, changes
  `
  CREATE TABLE settings (
    key   text PRIMARY KEY,
    value text NOT NULL
  );

  -- id is '{system}:{code}'; COLLATE "C" compares bytes: the UTF-8 order paging needs.
  -- json is the record exactly as the API returns it.
  CREATE TABLE codes (
    id     text COLLATE "C" PRIMARY KEY,
    system text COLLATE "C" NOT NULL,
    code   text COLLATE "C" NOT NULL,
    status text NOT NULL,
    hash   text NOT NULL,
    json   text NOT NULL
  );
  CREATE INDEX codes_by_system ON codes (system, id);
  CREATE INDEX codes_by_status ON codes (status, id);

  -- id is assigned by the serialised importer in commit order and never reused.
  -- effective_date is YYYY-MM-DD text: byte order is date order.
  CREATE TABLE changes (
    id             bigint PRIMARY KEY,
    code_id        text COLLATE "C" NOT NULL,
    system         text COLLATE "C" NOT NULL,
    type           text NOT NULL,
    effective_date text COLLATE "C" NOT NULL,
    json           text NOT NULL
  );
  CREATE INDEX changes_by_date ON changes (effective_date, id);
  CREATE INDEX changes_by_code ON changes (code_id, effective_date, id);
  CREATE INDEX changes_by_system ON changes (system, effective_date, id);
  `,
  // 2: plans, organisations, API keys, limit counters, daily usage, access version
  `
  CREATE TABLE plans (
    name              text COLLATE "C" PRIMARY KEY,
    endpoints         text NOT NULL, -- JSON array of endpoint names
    rate_per_minute   integer NOT NULL,
    monthly_quota     bigint,        -- NULL: unlimited
    test_keys_allowed boolean NOT NULL
  );

  CREATE TABLE organisations (
    id         text PRIMARY KEY,
    slug       text COLLATE "C" NOT NULL UNIQUE,
    plan       text COLLATE "C" NOT NULL REFERENCES plans (name),
    created_at text NOT NULL
  );

  -- The key itself is never stored: only its SHA-256 and a display prefix.
  CREATE TABLE api_keys (
    id             text PRIMARY KEY,
    org_id         text NOT NULL REFERENCES organisations (id),
    hash           text NOT NULL UNIQUE,
    display_prefix text NOT NULL,
    name           text NOT NULL,
    mode           text NOT NULL,
    created_at     text COLLATE "C" NOT NULL,
    revoked_at     text,
    last_used_at   text COLLATE "C"
  );
  CREATE INDEX api_keys_by_org ON api_keys (org_id, created_at);

  -- Per-organisation counts of the limit windows ('month:2026-11', 'minute:2026-11-21T08:17').
  CREATE TABLE limit_counters (
    org_id     text NOT NULL,
    window_key text COLLATE "C" NOT NULL,
    count      bigint NOT NULL,
    PRIMARY KEY (org_id, window_key)
  );

  -- Requests per key, UTC day and outcome, for the dashboard and the usage command.
  CREATE TABLE usage_daily (
    key_id  text NOT NULL,
    day     text COLLATE "C" NOT NULL,
    outcome text NOT NULL,
    count   bigint NOT NULL,
    PRIMARY KEY (key_id, day, outcome)
  );

  -- settings.access_version moves with every change that can make a cached key
  -- lookup wrong (revocation, plan or organisation changes), whoever makes it:
  -- instances compare it to notice changes made by a process that could not
  -- reach Redis.
  CREATE FUNCTION codebook_bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO settings (key, value) VALUES ('access_version', '1')
      ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text;
    RETURN NULL;
  END $$;
  CREATE TRIGGER api_keys_access_version AFTER UPDATE OF revoked_at, org_id, hash OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION codebook_bump_access_version();
  CREATE TRIGGER organisations_access_version AFTER UPDATE OR DELETE ON organisations
    FOR EACH STATEMENT EXECUTE FUNCTION codebook_bump_access_version();
  CREATE TRIGGER plans_access_version AFTER UPDATE OR DELETE ON plans
    FOR EACH STATEMENT EXECUTE FUNCTION codebook_bump_access_version();
  `,
  // 3: dashboard users, one-time password links, sessions, sign-in throttling, audit log
  `
  CREATE TABLE users (
    id            text PRIMARY KEY,
    org_id        text NOT NULL REFERENCES organisations (id),
    email         text COLLATE "C" NOT NULL UNIQUE,
    password_hash text,
    created_at    text NOT NULL,
    disabled_at   text
  );
  CREATE INDEX users_by_org ON users (org_id, email);

  CREATE TABLE password_tokens (
    hash       text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users (id),
    expires_at text COLLATE "C" NOT NULL,
    used_at    text
  );

  CREATE TABLE sessions (
    hash       text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users (id),
    csrf_token text NOT NULL,
    created_at text NOT NULL,
    expires_at text COLLATE "C" NOT NULL
  );
  CREATE INDEX sessions_by_user ON sessions (user_id);

  CREATE TABLE sign_in_failures (
    subject text NOT NULL,
    at      text COLLATE "C" NOT NULL
  );
  CREATE INDEX sign_in_failures_by_subject ON sign_in_failures (subject, at);

  CREATE TABLE audit_log (
    id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org_id text NOT NULL,
    actor  text NOT NULL,
    action text NOT NULL,
    target text NOT NULL,
    at     text NOT NULL
  );
  CREATE INDEX audit_log_by_org ON audit_log (org_id, id);

  -- One-time form nonces: a resubmitted "create key" form must not create a second key.
  CREATE TABLE form_nonces (
    nonce text PRIMARY KEY,
    at    text COLLATE "C" NOT NULL
  );
  CREATE INDEX form_nonces_by_at ON form_nonces (at);
  `,
  // 4: addresses each account last signed in from, exempt from the account-wide sign-in backoff
  `
  CREATE TABLE sign_in_addresses (
    email   text NOT NULL,
    address text NOT NULL,
    last_at text COLLATE "C" NOT NULL,
    PRIMARY KEY (email, address)
  );
  CREATE INDEX sign_in_addresses_by_last_at ON sign_in_addresses (last_at);
  `,
  // 5: keys through their life: expiry (and a roll's grace), exposures, organisation settings, request log
  KEY_LIFE_POSTGRES,
  // 6: search: folded code and display, and the words of each code, built for the codes already stored;
  //    systems and releases, built from the codes and changes stored;
  //    plans that had every endpoint get codes.search and systems.list
  async (client) => {
    await client.query(POSTGRES_SYSTEMS_SCHEMA);
    await client.query(POSTGRES_SEARCH_SCHEMA);
    await indexExistingCodes(client);
    await client.query(planUpgradePostgres(BEFORE_SEARCH, ADDED_WITH_SEARCH));
  },
  // 7: hierarchy edges and closure, code versions for as_of, roots and release indexes;
  //    plans that had every endpoint get codes.hierarchy and codes.batch
  migrateNavigation,
  // 8: folding lower-cases after NFKD too (№ → no, ℃ → °c): the search rows it changes, written again
  refoldSearchRows,
  // 9: the roots and release indexes on columns the importer writes, instead of on functions of the
  //    record's JSON evaluated at every insert (see INDEX_COLUMNS_POSTGRES)
  INDEX_COLUMNS_POSTGRES,
  // 10: which key was rolled to which successor
  KEY_ROLLS_POSTGRES,
];

/** Runs on a connection of its own, without the requests' statement timeout: a migration may take long. */
export async function migratePostgres(connection: PoolOptions, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number> {
  return withOwnConnection(connection, async (client, markBroken) => {
    try {
      await exec(client, `SELECT pg_advisory_lock(${LOCK_KEY_SQL})`, [':codebook.migrate']);
      try {
        await exec(
          client,
          `CREATE TABLE IF NOT EXISTS schema_migrations (
          version    integer PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`,
        );
        const applied = new Set((await rows<{ version: number }>(client, 'SELECT version FROM schema_migrations')).map((r) => r.version));
        let count = 0;
        for (let i = 0; i < migrations.length; i++) {
          const version = i + 1;
          if (applied.has(version)) continue;
          await exec(client, 'BEGIN');
          try {
            const migration = migrations[i]!;
            if (typeof migration === 'string') await client.query(migration);
            else await migration(client);
            await exec(client, 'INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
            await exec(client, 'COMMIT');
            count++;
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        }
        return count;
      } finally {
        await exec(client, `SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`, [':codebook.migrate']);
      }
    } catch (error) {
      // The session (and with it the lock) is discarded, not reused.
      markBroken(error as Error);
      throw error;
    }
  });
}
