/**
 * PostgreSQL migration of keys through their life (see the SQLite one). A
 * change of a key's expiry can make a cached lookup wrong, so it moves the
 * access version like a revocation does.
 */
export const KEY_LIFE_POSTGRES = `
  ALTER TABLE api_keys ADD COLUMN expires_at text COLLATE "C";

  DROP TRIGGER api_keys_access_version ON api_keys;
  CREATE TRIGGER api_keys_access_version AFTER UPDATE OF revoked_at, org_id, hash, expires_at OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION codebook_bump_access_version();

  CREATE TABLE key_exposures (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_id  text NOT NULL REFERENCES api_keys (id),
    org_id  text NOT NULL,
    via     text NOT NULL,
    at      text COLLATE "C" NOT NULL,
    address text NOT NULL,
    route   text NOT NULL,
    revoked boolean NOT NULL
  );
  CREATE INDEX key_exposures_by_org ON key_exposures (org_id, id);

  CREATE TABLE org_settings (
    org_id              text PRIMARY KEY REFERENCES organisations (id),
    auto_revoke_exposed boolean NOT NULL DEFAULT false,
    request_log_days    integer NOT NULL DEFAULT 7,
    request_log_max     integer NOT NULL DEFAULT 10000
  );

  CREATE TABLE request_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org_id      text NOT NULL,
    key_id      text NOT NULL,
    key_prefix  text NOT NULL,
    at          text COLLATE "C" NOT NULL,
    method      text NOT NULL,
    path        text NOT NULL,
    status      integer NOT NULL,
    error_code  text,
    duration_ms double precision NOT NULL,
    request_id  text NOT NULL
  );
  -- One index: filters (key, status, Request-Id) read at most one organisation's entries (10 000),
  -- and every further index would cost each logged request another write.
  CREATE INDEX request_log_by_org ON request_log (org_id, id);
`;

/** Which key was rolled to which successor (see the SQLite one). */
export const KEY_ROLLS_POSTGRES = `
  CREATE TABLE key_rolls (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_id       text NOT NULL REFERENCES api_keys (id),
    successor_id text NOT NULL REFERENCES api_keys (id),
    at           text COLLATE "C" NOT NULL
  );
  CREATE INDEX key_rolls_by_key ON key_rolls (key_id, id);
`;
