/**
 * While another connection holds SQLite's write lock (a long import does),
 * writes from the server wait on timers: the server keeps answering requests,
 * and the write completes once the lock is released.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createUser } from '../../src/services/dashboard/users.ts';
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
