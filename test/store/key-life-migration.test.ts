/**
 * Migration 5 (keys through their life) on a database made before it, on
 * both backends: existing keys keep working, never expire, and can be rolled;
 * on PostgreSQL, a change of a key's expiry moves the access version as a
 * revocation does, so instances that could not be told through Redis notice.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { generateKey, hashSecret } from '../../src/services/access/api-keys.ts';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/store.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

const BEFORE = 4;
const T = '2026-03-15T12:00:00.000Z';
const key = generateKey('live');
const ROWS = [
  `INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES ('old', '["codes.list"]', 10, NULL, %TRUE%)`,
  `INSERT INTO organisations (id, slug, plan, created_at) VALUES ('org_old', 'old', 'old', '${T}')`,
  `INSERT INTO api_keys (id, org_id, hash, display_prefix, name, mode, created_at) VALUES ('key_old', 'org_old', '${hashSecret(key)}', '${key.slice(0, 13)}', 'legacy', 'live', '${T}')`,
];

async function assertKeptWorking(store: Store): Promise<void> {
  const found = await store.access.findKeyByHash(hashSecret(key));
  assert.equal(found?.key.id, 'key_old');
  assert.equal(found?.key.expiresAt, null, 'an existing key never expires');
  assert.equal(found?.key.revokedAt, null);
  assert.deepEqual(await store.keyLife.getOrgSettings('org_old'), { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_000 });
  assert.equal(await store.keyLife.shortenExpiry('key_old', '2026-03-16T00:00:00.000Z'), true);
  assert.equal((await store.access.getKey('key_old'))!.expiresAt, '2026-03-16T00:00:00.000Z');
}

test('SQLite: a database at version 4 migrates, and its keys keep working', async () => {
  const dir = tempDir();
  const path = join(dir, 'old.db');
  try {
    const db = new DatabaseSync(path);
    for (const sql of SQLITE_MIGRATIONS.slice(0, BEFORE)) db.exec(sql as string);
    db.exec(`PRAGMA user_version = ${BEFORE}`);
    for (const sql of ROWS) db.exec(sql.replace('%TRUE%', '1'));
    db.close();
    const store = new SqliteStore({ path });
    try {
      await assertKeptWorking(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('codebook_keylife_mig');
  });
  after(async () => db?.drop());

  test('a database at version 4 migrates, its keys keep working, and an expiry change moves the access version', async () => {
    const schema = await db.createSchema();
    await migratePostgres({ url: db.url, schema }, POSTGRES_MIGRATIONS.slice(0, BEFORE));
    const client = new pg.Client({ connectionString: db.url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      for (const sql of ROWS) await client.query(sql.replace('%TRUE%', 'true'));
      const store = await PostgresStore.open({ url: db.url, schema, max: 2 });
      try {
        const version = async () => (await client.query("SELECT value FROM settings WHERE key = 'access_version'")).rows[0]?.value ?? null;
        const beforeChange = await version();
        await assertKeptWorking(store);
        assert.notEqual(await version(), beforeChange, 'the trigger covers expires_at');
      } finally {
        await store.close();
      }
    } finally {
      await client.end();
    }
  });
});
