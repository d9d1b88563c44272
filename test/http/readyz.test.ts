/**
 * /readyz on the embedded database, as a load balancer sees it: 200 "ready"
 * while the database answers; 503 with Retry-After once it does not, so the
 * instance is taken out of rotation, also when its files were deleted or
 * replaced under it. (Scaled out: test/scale/outages.test.ts.)
 */
import assert from 'node:assert/strict';
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTestContext } from '../helpers/context.ts';

test('/readyz says ready while SQLite answers, and 503 unavailable with Retry-After once it does not', async () => {
  const ctx = await createTestContext();
  try {
    const up = await ctx.get('/readyz');
    assert.equal(up.statusCode, 200);
    assert.deepEqual(up.json(), { status: 'ready', checks: { database: 'ok', redis: 'not configured' } });
    await ctx.store.close();
    const down = await ctx.get('/readyz');
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { status: 'unavailable', checks: { database: 'unreachable', redis: 'not configured' } });
    assert.match(String(down.headers['retry-after']), /^\d+$/);
  } finally {
    await ctx.close();
  }
});

test('/readyz on SQLite answers 503 once the database file or its activity file is deleted or replaced under the server', async () => {
  const cases: [string, (file: string) => void][] = [
    ['the database file deleted', (file) => rmSync(file)],
    ['the database file replaced by a copy', (file) => (copyFileSync(file, `${file}.copy`), renameSync(`${file}.copy`, file))],
    ['the activity file deleted', (file) => rmSync(`${file}.activity`)],
  ];
  for (const [what, damage] of cases) {
    const ctx = await createTestContext();
    try {
      assert.equal((await ctx.get('/readyz')).statusCode, 200, what);
      damage(join(ctx.dir, 'codebook.db'));
      const res = await ctx.get('/readyz');
      assert.equal(res.statusCode, 503, what);
      assert.deepEqual(res.json(), { status: 'unavailable', checks: { database: 'unreachable', redis: 'not configured' } }, what);
      assert.match(String(res.headers['retry-after']), /^\d+$/, what);
    } finally {
      await ctx.close();
    }
  }
});
