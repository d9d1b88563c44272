import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDemoContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createDemoContext();
});
after(() => ctx.close());

test('GET /v1/codes returns the page envelope with every code', async () => {
  const res = await ctx.get('/v1/codes');
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['request-id'] as string, /^req_[0-9a-f]{32}$/);
  const body = res.json();
  assert.deepEqual(
    body.data.map((c: { id: string }) => c.id),
    ['demo:A', 'demo:B'],
  );
  assert.deepEqual(body.pagination, { has_more: false });
});
