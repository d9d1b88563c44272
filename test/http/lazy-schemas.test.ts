/**
 * Route schemas are compiled by the first request that needs them, not at
 * start-up (src/http/lazy-schemas.ts): every one of them still compiles, a
 * start compiles none, and a request validates and serializes exactly as
 * with schemas compiled up front (coerced numbers, Ajv's errors as our 400s).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { lazySchemas } from '../../src/http/lazy-schemas.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
const apps: FastifyInstance[] = [];
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha' },
      { code: 'B', display: 'Beta' },
    ],
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
});
after(async () => {
  for (const app of apps) await app.close();
  await ctx.close();
});

async function readyApp() {
  const schemas = lazySchemas();
  const app = await buildApp(ctx.deps, { schemas });
  apps.push(app);
  await app.ready();
  return { app, schemas };
}

test('every route schema compiles, and a ready app has compiled none of them', async () => {
  const { app, schemas } = await readyApp();
  const routes = app.printRoutes({ commonPrefix: false }).split('\n').length;
  const compiled = schemas.compileAll();
  // At least a validator or a serializer for most routes, and a compiler of each kind.
  assert.ok(compiled > routes, `${compiled} compiled for ${routes} route lines`);
  assert.equal(schemas.compileAll(), 0, 'nothing left to compile');
});

test('a request compiles what it needs and answers as before: coerced parameters, validation errors, serialized bodies', async () => {
  const { app, schemas } = await readyApp();
  const { app: fresh, schemas: untouched } = await readyApp();
  const get = (url: string) => app.inject({ method: 'GET', url, headers: ctx.authHeaders });

  const bad = await get('/v1/codes?limit=0');
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error.code, 'invalid_parameter');
  assert.equal(bad.json().error.param, 'limit');
  const page = await get('/v1/codes?limit=1');
  assert.equal(page.statusCode, 200);
  const body = page.json();
  assert.deepEqual(
    body.data.map((c: { id: string }) => c.id),
    ['demo:A'],
  );
  assert.equal(body.pagination.has_more, true);
  assert.equal(typeof body.pagination.next_cursor, 'string');

  // The requests compiled their route's schemas (and the compilers) on the first app only.
  assert.ok(schemas.compileAll() < untouched.compileAll());
  assert.equal((await fresh.inject({ method: 'GET', url: '/v1/codes?limit=1', headers: ctx.authHeaders })).body, page.body);
});
