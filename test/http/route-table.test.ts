/**
 * The route table and the OpenAPI document name the same /v1 operations, so
 * the tests that walk the document's operations (authentication, plans,
 * limits, order of checks) walk every route the service answers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { apiOperations, fillPath, routeTable, seedRouteFixture, servedPaths } from '../helpers/routes.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

test('every /v1 route the router serves is in the OpenAPI document, and every documented operation is served', async () => {
  const served = (await routeTable(ctx)).map(key).sort();
  const documented = apiOperations(ctx.app).map(key).sort();
  assert.ok(served.length >= 4, `the route table was read: ${served.join(', ')}`);
  assert.deepEqual(
    served.filter((r) => !documented.includes(r)),
    [],
    'served but missing from the OpenAPI document',
  );
  assert.deepEqual(
    documented.filter((r) => !served.includes(r)),
    [],
    'documented but not served',
  );
});

test('every documented operation can be sent: its parameters have samples, and with the fixture it succeeds', async () => {
  for (const op of apiOperations(ctx.app)) {
    const res = await ctx.request({ method: op.method, url: op.url, ...(op.body === undefined ? {} : { payload: op.body as object }) });
    assert.equal(res.statusCode, op.ok, `${op.operationId} ${op.method} ${op.url}: ${res.body}`);
  }
});

test('a path parameter without a sample fails loudly, naming the map to extend', () => {
  assert.throws(() => fillPath('/v1/widgets/{widget_id}'), /no sample for path parameter "widget_id" of \/v1\/widgets\/\{widget_id\}: add one to PATH_SAMPLES/);
});

test('the route table reader sees the routes outside /v1 too', () => {
  const paths = servedPaths(ctx.app).map((r) => r.path);
  for (const path of ['/openapi.json', '/healthz', '/v1/codes', '/v1/codes/:code_id/changes'])
    assert.ok(paths.includes(path), `${path} in ${paths.join(', ')}`);
});
