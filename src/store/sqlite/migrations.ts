/**
 * SQLite schema, one entry per version. PRAGMA user_version records how many
 * have been applied; each runs in its own IMMEDIATE transaction, so two
 * processes starting at once cannot both apply it.
 */
import type { DatabaseSync } from 'node:sqlite';
import { KEY_LIFE_SQLITE, KEY_ROLLS_SQLITE } from './key-life-migration.ts';
import { SEARCH_WORDS_CHURN_SCHEMA, SEARCH_WORDS_DIGEST_SCHEMA, SQLITE_SEARCH_SCHEMA } from './search.ts';
import { dropOneCharacterPrefixes, indexExistingCodes, rebuildSearchWords, refoldSearchRows } from './search-migrations.ts';
import { fillSearchTerms } from './search-terms.ts';
import { SQLITE_SYSTEMS_SCHEMA } from './systems.ts';
import { ADDED_WITH_SEARCH, BEFORE_SEARCH, planUpgradeSqlite } from '../plan-upgrade.ts';
import { CLUSTER_VERSIONS, INDEX_COLUMNS, migrateNavigation } from './navigation-migration.ts';
import { ActivityNotCopied, copyIntoActivity, dropMovedTables } from './activity.ts';

/** SQL, or a function for a migration that must compute in JavaScript (it runs in the same transaction). */
export type SqliteMigration = string | ((db: DatabaseSync) => void);

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  // 1: settings, codes, changes
  `
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  -- id is '{system}:{code}'; BINARY collation gives the byte order paging needs.
  -- json is the record exactly as the API returns it.
  CREATE TABLE codes (
    id     TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    code   TEXT NOT NULL,
    status TEXT NOT NULL,
    hash   TEXT NOT NULL,
    json   TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX codes_by_system ON codes (system, id);
  CREATE INDEX codes_by_status ON codes (status, id);

  -- id is assigned by the serialised importer in commit order and never reused.
  CREATE TABLE changes (
    id             INTEGER PRIMARY KEY,
    code_id        TEXT NOT NULL,
    system         TEXT NOT NULL,
    type           TEXT NOT NULL,
    effective_date TEXT NOT NULL,
    json           TEXT NOT NULL
  ) STRICT;
  CREATE INDEX changes_by_date ON changes (effective_date, id);
  CREATE INDEX changes_by_code ON changes (code_id, effective_date, id);
  CREATE INDEX changes_by_system ON changes (system, effective_date, id);
  `,
  // 2: plans, organisations, API keys, limit counters and daily usage
  `
  CREATE TABLE plans (
    name              TEXT PRIMARY KEY,
    endpoints         TEXT NOT NULL, -- JSON array of endpoint names
    rate_per_minute   INTEGER NOT NULL,
    monthly_quota     INTEGER,       -- NULL: unlimited
    test_keys_allowed INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE organisations (
    id         TEXT PRIMARY KEY,
    slug       TEXT NOT NULL UNIQUE,
    plan       TEXT NOT NULL REFERENCES plans (name),
    created_at TEXT NOT NULL
  ) STRICT;

  -- The key itself is never stored: only its SHA-256 and a display prefix.
  CREATE TABLE api_keys (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES organisations (id),
    hash           TEXT NOT NULL UNIQUE,
    display_prefix TEXT NOT NULL,
    name           TEXT NOT NULL,
    mode           TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    revoked_at     TEXT,
    last_used_at   TEXT
  ) STRICT;
  CREATE INDEX api_keys_by_org ON api_keys (org_id, created_at);

  -- Per-organisation counts of the limit windows ('month:2026-11', 'minute:2026-11-21T08:17').
  CREATE TABLE limit_counters (
    org_id TEXT NOT NULL,
    window TEXT NOT NULL,
    count  INTEGER NOT NULL,
    PRIMARY KEY (org_id, window)
  ) STRICT, WITHOUT ROWID;

  -- Requests per key, UTC day and outcome, for the dashboard and the usage command.
  CREATE TABLE usage_daily (
    key_id  TEXT NOT NULL,
    day     TEXT NOT NULL,
    outcome TEXT NOT NULL,
    count   INTEGER NOT NULL,
    PRIMARY KEY (key_id, day, outcome)
  ) STRICT, WITHOUT ROWID;
  `,
  // 3: dashboard users, one-time password links, sessions, sign-in throttling, audit log
  `
  CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organisations (id),
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_at    TEXT NOT NULL,
    disabled_at   TEXT
  ) STRICT;

  CREATE TABLE password_tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    expires_at TEXT NOT NULL,
    used_at    TEXT
  ) STRICT;

  CREATE TABLE sessions (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    csrf_token TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX sessions_by_user ON sessions (user_id);

  CREATE TABLE sign_in_failures (
    subject TEXT NOT NULL,
    at      TEXT NOT NULL
  ) STRICT;
  CREATE INDEX sign_in_failures_by_subject ON sign_in_failures (subject, at);

  CREATE TABLE audit_log (
    id     INTEGER PRIMARY KEY,
    org_id TEXT NOT NULL,
    actor  TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    at     TEXT NOT NULL
  ) STRICT;
  CREATE INDEX audit_log_by_org ON audit_log (org_id, id);

  -- One-time form nonces: a resubmitted "create key" form must not create a second key.
  CREATE TABLE form_nonces (
    nonce TEXT PRIMARY KEY,
    at    TEXT NOT NULL
  ) STRICT;
  `,
  // 4: addresses each account last signed in from, exempt from the account-wide sign-in backoff
  `
  CREATE TABLE sign_in_addresses (
    email      TEXT NOT NULL,
    address    TEXT NOT NULL,
    last_at    TEXT NOT NULL,
    PRIMARY KEY (email, address)
  ) STRICT;
  CREATE INDEX sign_in_addresses_by_last_at ON sign_in_addresses (last_at);
  `,
  // 5: keys through their life: expiry (and a roll's grace), exposures, organisation settings, request log
  KEY_LIFE_SQLITE,
  // 6: the counter column takes PostgreSQL's name, so that both backends share their queries
  `
  ALTER TABLE limit_counters RENAME COLUMN window TO window_key;
  `,
  // 7: search: folded code and display, and an FTS5 index of words, built for the codes already stored;
  //    systems and releases, built from the codes and changes stored;
  //    plans that had every endpoint get codes.search and systems.list
  (db) => {
    db.exec(SQLITE_SYSTEMS_SCHEMA);
    db.exec(SQLITE_SEARCH_SCHEMA);
    indexExistingCodes(db);
    db.exec(planUpgradeSqlite(BEFORE_SEARCH, ADDED_WITH_SEARCH));
  },
  // 8: hierarchy edges and closure, code versions for as_of, roots and release indexes;
  //    plans that had every endpoint get codes.hierarchy and codes.batch
  migrateNavigation,
  // 9: code versions clustered by code and date, the order as-of reads walk
  CLUSTER_VERSIONS,
  // 10: the words of the search index, one row each (a long query word becomes the OR of the terms it starts)
  fillSearchTerms,
  // 11: the search's display index carries the folded code: the third group (the display starts with
  //     the query, the code does not) is read from the index alone, without a row lookup a candidate
  `
  DROP INDEX search_by_display;
  CREATE INDEX search_by_display ON search_codes (folded_display, id, folded_code);
  `,
  // 12: the word index keeps which records hold a word, not where (search never asked where):
  //     a smaller index, cheaper to write on every import and to read
  rebuildSearchWords,
  // 13: folding lower-cases after NFKD too (№ → no, ℃ → °c): the search rows it changes, written again
  refoldSearchRows,
  // 14: how many records imports have revised in the word index since it was last merged (see mergeWordIndexAfter in search.ts)
  SEARCH_WORDS_CHURN_SCHEMA,
  // 15: the limit counters, daily usage, request log and last uses live in the activity file (activity.ts);
  //     copyIntoActivity runs before it, in a transaction of its own
  dropMovedTables,
  // 16: the word index without its one-character prefix level (a one-character query word is the OR of
  //     the two-character prefixes it starts), and the word list with what that OR reads
  dropOneCharacterPrefixes,
  // 17: the roots and release indexes on columns the importer writes, instead of on expressions over the
  //     record's JSON that SQLite parsed at every insert (see INDEX_COLUMNS)
  INDEX_COLUMNS,
  // 18: which key was rolled to which successor
  KEY_ROLLS_SQLITE,
  // 19: each search row's digest of its words (NULL until the row is next written): a revision that
  //     leaves a record's words as they were does not write them again in the word index
  SEARCH_WORDS_DIGEST_SCHEMA,
];

/** The version whose migration moves the server's bookkeeping to the activity file. */
export const ACTIVITY_MOVE = 15;
/** Copies and checks again when another process wrote between a copy and the check. */
const ACTIVITY_MOVE_ATTEMPTS = 5;

/** Brings the main file up to date; the activity file must be attached (activity.ts). */
export function migrateSqlite(db: DatabaseSync): void {
  const version = () => Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  let moveAttempts = 0;
  while (version() < SQLITE_MIGRATIONS.length) {
    if (version() === ACTIVITY_MOVE - 1) copyIntoActivity(db);
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = version();
      if (current < SQLITE_MIGRATIONS.length) {
        const migration = SQLITE_MIGRATIONS[current]!;
        if (typeof migration === 'string') db.exec(migration);
        else migration(db);
        db.exec(`PRAGMA user_version = ${current + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      if (error instanceof ActivityNotCopied && ++moveAttempts < ACTIVITY_MOVE_ATTEMPTS) continue;
      throw error;
    }
  }
}
