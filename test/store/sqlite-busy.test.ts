/**
 * While another connection holds SQLite's write lock (a long import does),
 * writes from the server wait on timers: the server keeps answering requests,
 * and the write completes once the lock is released.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DatabaseBusyError, StoreUnavailableError } from '../../src/errors.ts';
import { createUser } from '../../src/services/dashboard/users.ts';
import { IMPORT_NOTICE_MS } from '../../src/store/sqlite/busy.ts';
import { SqlKeyLifeStore } from '../../src/store/sql/key-life-queries.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
});
after(() => ctx.close());

test('a dashboard write waits for an import holding the lock without stalling the server', async () => {
  const other = new DatabaseSync(join(ctx.dir, 'codebook.db'));
  other.exec('BEGIN IMMEDIATE');
  let released = false;
  try {
    const write = createUser(ctx.deps.admin, ctx.org, 'waiting@example.com').then(() => released);
    // The server answers while the write waits for the lock.
    for (let i = 0; i < 5; i++) {
      const res = await ctx.get('/v1/codes?limit=1');
      assert.equal(res.statusCode, 200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(await ctx.store.dashboard.getUserByEmail('waiting@example.com'), null, 'not written while locked');
    other.exec('COMMIT');
    released = true;
    assert.equal(await write, true, 'the write finished only after the lock was released');
    assert.ok(await ctx.store.dashboard.getUserByEmail('waiting@example.com'));
  } finally {
    if (other.isTransaction) other.exec('ROLLBACK');
    other.close();
  }
});

test('a write held up past its wait gives up with DatabaseBusyError (a 503, not a 500), having written nothing; onWaiting is told once', async () => {
  let told = 0;
  const store = new SqliteStore({ path: join(ctx.dir, 'codebook.db'), writeWait: { waitMs: IMPORT_NOTICE_MS + 700, onWaiting: () => told++ } });
  const other = new DatabaseSync(join(ctx.dir, 'codebook.db'));
  other.exec('BEGIN IMMEDIATE');
  try {
    const started = performance.now();
    const error = await store.dashboard
      .createUser({ id: 'usr_held', orgId: ctx.org.id, email: 'held@example.com', passwordHash: null, createdAt: new Date().toISOString(), disabledAt: null })
      .then(
        () => assert.fail('written while the lock was held'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof DatabaseBusyError && error instanceof StoreUnavailableError, String(error));
    assert.match(error.message, /^the database stayed locked by another writer \(an import being written\) for more than 1 s; nothing was changed/);
    assert.ok(performance.now() - started >= IMPORT_NOTICE_MS + 700);
    assert.equal(told, 1, 'told once that the write waits');
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  assert.equal(await store.dashboard.getUserByEmail('held@example.com'), null);
  await store.close();
});

test("the request log's prune on the event loop waits out the activity file's lock while an import holds the main file", async () => {
  const importer = new SqliteStore({ path: join(ctx.dir, 'codebook.db') });
  const activity = new DatabaseSync(join(ctx.dir, 'codebook.db.activity'));
  try {
    await importer.withImport(async () => {
      activity.exec('BEGIN IMMEDIATE');
      setTimeout(() => activity.exec('COMMIT'), IMPORT_NOTICE_MS + 500);
      // The event loop's path (SqlKeyLifeStore's), which runs when the writer thread cannot.
      const prune = SqlKeyLifeStore.prototype.pruneRequests.call(ctx.store.keyLife, ctx.org.id, new Date().toISOString(), 0);
      await assert.doesNotReject(prune, 'an import on the main file is no reason for an activity write to give up');
    });
  } finally {
    if (activity.isTransaction) activity.exec('ROLLBACK');
    activity.close();
    await importer.close();
  }
});
