/**
 * SQLite migration of keys through their life: an expiry per key (also the end
 * of a roll's grace period), exposures of keys seen where a key must never be,
 * per-organisation settings, and the request log. Existing keys get no expiry.
 */
export const KEY_LIFE_SQLITE = `
  ALTER TABLE api_keys ADD COLUMN expires_at TEXT;

  -- A live key seen in a URL, a body field or a Referer: when, from where, on which route. Never the key.
  CREATE TABLE key_exposures (
    id       INTEGER PRIMARY KEY,
    key_id   TEXT NOT NULL REFERENCES api_keys (id),
    org_id   TEXT NOT NULL,
    via      TEXT NOT NULL,
    at       TEXT NOT NULL,
    address  TEXT NOT NULL,
    route    TEXT NOT NULL,
    revoked  INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX key_exposures_by_org ON key_exposures (org_id, id);

  CREATE TABLE org_settings (
    org_id              TEXT PRIMARY KEY REFERENCES organisations (id),
    auto_revoke_exposed INTEGER NOT NULL DEFAULT 0,
    request_log_days    INTEGER NOT NULL DEFAULT 7,
    request_log_max     INTEGER NOT NULL DEFAULT 10000
  ) STRICT;

  -- The organisation's latest requests, newest first by id; pruned by age and count.
  CREATE TABLE request_log (
    id          INTEGER PRIMARY KEY,
    org_id      TEXT NOT NULL,
    key_id      TEXT NOT NULL,
    key_prefix  TEXT NOT NULL,
    at          TEXT NOT NULL,
    method      TEXT NOT NULL,
    path        TEXT NOT NULL,
    status      INTEGER NOT NULL,
    error_code  TEXT,
    duration_ms REAL NOT NULL,
    request_id  TEXT NOT NULL
  ) STRICT;
  -- One index: filters (key, status, Request-Id) read at most one organisation's entries (10 000),
  -- and every further index would cost each logged request another write.
  CREATE INDEX request_log_by_org ON request_log (org_id, id);
`;

/**
 * Which key was rolled to which successor. An expiry alone does not say a key
 * was rolled (a key may be created with one), and the exposure banner must
 * not tell a user to revoke a leaked key "once its successor is in place"
 * when there is none. Rolls made before this migration are not known.
 */
export const KEY_ROLLS_SQLITE = `
  CREATE TABLE key_rolls (
    id           INTEGER PRIMARY KEY,
    key_id       TEXT NOT NULL REFERENCES api_keys (id),
    successor_id TEXT NOT NULL REFERENCES api_keys (id),
    at           TEXT NOT NULL
  ) STRICT;
  CREATE INDEX key_rolls_by_key ON key_rolls (key_id, id);
`;
