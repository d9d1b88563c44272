/**
 * The server's bookkeeping (limit counters, daily usage, request log, last
 * uses) in the activity file beside the database (src/store/sqlite/activity.ts):
 * what schema 15 moves there from an older database, that writing it leaves
 * the main file as other connections see it, and that an import's lock on the
 * main file does not hold it back.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { activityPath, ActivityNotCopied, attachActivity, copyIntoActivity, databaseFiles, dropMovedTables } from '../../src/store/sqlite/activity.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { RequestBatch } from '../../src/domain/request-batch.ts';
import { tempDir } from '../helpers/context.ts';
import { oldPlans, withOldSqlite, type OldRows } from '../helpers/old-schema.ts';

const T = '2026-03-01T00:00:00.000Z';
const LOGGED = {
  org_id: 'org_1',
  key_id: 'key_1',
  key_prefix: 'svc_live_abcd',
  at: '2026-03-15T12:00:00.000Z',
  method: 'GET',
  path: '/v1/codes',
  status: 200,
  error_code: null,
  duration_ms: 1.5,
  request_id: 'req_1',
};
const OLD: OldRows = [
  ['plans', oldPlans([['basic', ['codes.list']]])],
  ['organisations', [{ id: 'org_1', slug: 'one', plan: 'basic', created_at: T }]],
  [
    'api_keys',
    [
      {
        id: 'key_1',
        org_id: 'org_1',
        hash: 'h1',
        display_prefix: 'svc_live_abcd',
        name: 'used',
        mode: 'live',
        created_at: T,
        last_used_at: '2026-03-15T12:00:05.000Z',
      },
      { id: 'key_2', org_id: 'org_1', hash: 'h2', display_prefix: 'svc_live_efgh', name: 'never', mode: 'live', created_at: T, last_used_at: null },
    ],
  ],
  ['limit_counters', [{ org_id: 'org_1', window_key: 'month:2026-03', count: 7 }]],
  ['usage_daily', [{ key_id: 'key_1', day: '2026-03-15', outcome: 'ok', count: 7 }]],
  ['request_log', [{ id: 41, ...LOGGED }]],
];

const tablesOf = (path: string) => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

test('SQLite: a database of schema 14 keeps its counts, usage, request log and last uses, now in the activity file', async () => {
  await withOldSqlite(14, OLD, async (store) => {
    assert.deepEqual(await store.usage.loadCounters('org_1', ['month:2026-03']), new Map([['month:2026-03', 7]]));
    assert.deepEqual(await store.usage.usageByDay('org_1', '2026-03'), [{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 7 }]);
    assert.equal((await store.access.getKey('key_1'))!.lastUsedAt, '2026-03-15T12:00:05.000Z');
    assert.equal((await store.access.getKey('key_2'))!.lastUsedAt, null);
    const logged = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 10 });
    assert.deepEqual(
      logged.entries.map((e) => [e.id, e.requestId, e.path]),
      [[41, 'req_1', '/v1/codes']],
    );

    // Where they are now: none of them left in the main file.
    const main = tablesOf(store.path);
    for (const moved of ['limit_counters', 'usage_daily', 'request_log']) assert.ok(!main.includes(moved), `${moved} is still in the main file`);
    const db = new DatabaseSync(store.path, { readOnly: true });
    const keyColumns = (db.prepare('PRAGMA table_info(api_keys)').all() as { name: string }[]).map((c) => c.name);
    db.close();
    assert.ok(!keyColumns.includes('last_used_at'));
    assert.deepEqual(tablesOf(activityPath(store.path)), ['key_last_used', 'limit_counters', 'request_log', 'usage_daily']);

    // And the store goes on writing there.
    assert.equal(
      await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 1 }], new Map([['key_1', '2026-03-16T00:00:00.000Z']])),
      true,
    );
    assert.deepEqual(await store.usage.usageByDay('org_1', '2026-03'), [{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 8 }]);
    assert.equal((await store.access.getKey('key_1'))!.lastUsedAt, '2026-03-16T00:00:00.000Z');
    await store.usage.addUsage([], new Map([['key_1', '2026-03-15T00:00:00.000Z']]));
    assert.equal((await store.access.getKey('key_1'))!.lastUsedAt, '2026-03-16T00:00:00.000Z', 'a last use only moves forward');
  });
});

let dir: string;
before(() => {
  dir = tempDir('codebook-activity-');
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function withOrgAndKey(path: string): Promise<SqliteStore> {
  const store = new SqliteStore({ path });
  await store.access.seedPlans([{ name: 'basic', endpoints: ['codes.list'], ratePerMinute: 60, monthlyQuota: null, testKeysAllowed: true }]);
  await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
  await store.access.insertKey({ id: 'key_1', orgId: 'org_1', hash: 'hash1', displayPrefix: 'svc_live_abcd', name: 'first', mode: 'live', createdAt: T });
  return store;
}

const entry = (requestId: string) => ({
  orgId: 'org_1',
  keyId: 'key_1',
  keyPrefix: 'svc_live_abcd',
  at: '2026-03-15T12:00:00.000Z',
  method: 'GET',
  path: '/v1/codes',
  status: 200,
  errorCode: null,
  durationMs: 1,
  requestId,
});

test("the server's bookkeeping leaves the main file as other connections see it (its data version does not move)", async () => {
  const path = join(dir, 'version.db');
  const store = await withOrgAndKey(path);
  const other = new DatabaseSync(path, { readOnly: true });
  try {
    const version = other.prepare('PRAGMA data_version');
    const before = version.get()!.data_version;
    assert.equal(await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 1 }], new Map([['key_1', T]])), true);
    assert.equal(await store.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 1 }], ['minute:2026-03-15T12:00']), true);
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_a')])), true);
    await store.keyLife.pruneRequests('org_1', '2026-03-01T00:00:00.000Z', 100);
    assert.equal(version.get()!.data_version, before, 'a count, a last use or a logged request moved the main file');
    await store.access.insertKey({ id: 'key_2', orgId: 'org_1', hash: 'hash2', displayPrefix: 'svc_live_efgh', name: 'second', mode: 'live', createdAt: T });
    assert.notEqual(version.get()!.data_version, before, 'the check above would see a commit to the main file');
  } finally {
    other.close();
    await store.close();
  }
});

test("counts are written while an import holds the main file's lock, and kept for later while the activity file is locked", async () => {
  const path = join(dir, 'locks.db');
  const store = await withOrgAndKey(path);
  const importer = new DatabaseSync(path);
  const other = new DatabaseSync(activityPath(path));
  try {
    importer.exec('BEGIN IMMEDIATE');
    assert.equal(await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 2 }], new Map([['key_1', T]])), true);
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_b')])), true);
    importer.exec('ROLLBACK');

    other.exec('BEGIN IMMEDIATE');
    assert.equal(await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 5 }], new Map()), false);
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_c')])), false);
    assert.equal(await store.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 9 }], []), false);
    other.exec('ROLLBACK');

    assert.deepEqual(
      await store.usage.usageByDay('org_1', '2026-03'),
      [{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 2 }],
      'nothing half-written',
    );
    const logged = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 10 });
    assert.deepEqual(
      logged.entries.map((e) => e.requestId),
      ['req_b'],
    );
  } finally {
    if (importer.isTransaction) importer.exec('ROLLBACK');
    if (other.isTransaction) other.exec('ROLLBACK');
    importer.close();
    other.close();
    await store.close();
  }
});

test('a database whose activity file is gone opens with empty counts, and its keys and codes as they were', async () => {
  const path = join(dir, 'gone.db');
  const store = await withOrgAndKey(path);
  await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 3 }], new Map([['key_1', T]]));
  await store.close();
  for (const file of databaseFiles(path).filter((f) => f.startsWith(activityPath(path)))) rmSync(file, { force: true });

  const again = new SqliteStore({ path });
  try {
    assert.ok(existsSync(activityPath(path)));
    assert.equal((await again.access.getKey('key_1'))!.name, 'first');
    assert.equal((await again.access.getKey('key_1'))!.lastUsedAt, null);
    assert.deepEqual(await again.usage.usageByDay('org_1', '2026-03'), []);
  } finally {
    await again.close();
  }
});

test("the move never drops the main file's tables while a row of theirs is missing from the activity file", () => {
  const path = join(dir, 'move.db');
  const db = new DatabaseSync(path);
  try {
    for (const migration of SQLITE_MIGRATIONS.slice(0, 14)) {
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
    }
    attachActivity(db, path);
    db.exec("INSERT INTO main.usage_daily VALUES ('key_1', '2026-03-15', 'ok', 1)");
    copyIntoActivity(db);
    // Written after the copy: by another process of the version before, say.
    db.exec("INSERT INTO main.usage_daily VALUES ('key_1', '2026-03-16', 'ok', 1)");
    db.exec('BEGIN IMMEDIATE');
    assert.throws(() => dropMovedTables(db), ActivityNotCopied);
    db.exec('ROLLBACK');
    assert.ok(tablesOf(path).includes('usage_daily'));

    copyIntoActivity(db);
    db.exec('BEGIN IMMEDIATE');
    dropMovedTables(db);
    db.exec('COMMIT');
    assert.deepEqual(
      db
        .prepare('SELECT day, count FROM activity.usage_daily ORDER BY day')
        .all()
        .map((r) => [r.day, r.count]),
      [
        ['2026-03-15', 1],
        ['2026-03-16', 1],
      ],
    );
    assert.ok(!tablesOf(path).includes('usage_daily'));
  } finally {
    db.close();
  }
});
