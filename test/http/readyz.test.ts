/**
 * /readyz on the embedded database, as a load balancer sees it: 200 "ready"
 * while the database answers; 503 with Retry-After once it does not, so the
 * instance is taken out of rotation. (Scaled out: test/scale/outages.test.ts.)
 */
import assert from 'node:assert/strict';
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
