/**
 * Migration 5 (keys through their life) on a database made before it, on
 * both backends: existing keys keep working, never expire, and can be rolled;
 * on PostgreSQL, a change of a key's expiry moves the access version as a
 * revocation does, so instances that could not be told through Redis notice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKey, hashSecret } from '../../src/services/access/api-keys.ts';
import type { Store } from '../../src/store/store.ts';
import { withOldPostgres, withOldSqlite, type OldRows } from '../helpers/old-schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

const BEFORE = 4;
const T = '2026-03-15T12:00:00.000Z';
const key = generateKey('live');
const ROWS: OldRows = [
  ['plans', [{ name: 'old', endpoints: '["codes.list"]', rate_per_minute: 10, monthly_quota: null, test_keys_allowed: true }]],
  ['organisations', [{ id: 'org_old', slug: 'old', plan: 'old', created_at: T }]],
  ['api_keys', [{ id: 'key_old', org_id: 'org_old', hash: hashSecret(key), display_prefix: key.slice(0, 13), name: 'legacy', mode: 'live', created_at: T }]],
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
  await withOldSqlite(BEFORE, ROWS, assertKeptWorking);
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('codebook_keylife_mig');
  });
  after(async () => db?.drop());

  test('a database at version 4 migrates, its keys keep working, and an expiry change moves the access version', async () => {
    await withOldPostgres(db, BEFORE, ROWS, async (store, client) => {
      const version = async () => (await client.query("SELECT value FROM settings WHERE key = 'access_version'")).rows[0]?.value ?? null;
      const beforeChange = await version();
      await assertKeptWorking(store);
      assert.notEqual(await version(), beforeChange, 'the trigger covers expires_at');
    });
  });
});
