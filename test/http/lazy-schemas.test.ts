/**
 * Route schemas are compiled by the first request that needs them, not at
 * start-up (src/http/lazy-schemas.ts): every one of them still compiles, a
 * ready app has compiled none, and requests validate and serialize exactly as
 * with Fastify's own compilers, which compile them all up front.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { lazySchemas } from '../../src/http/lazy-schemas.ts';
import { createDemoContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
const apps: FastifyInstance[] = [];
before(async () => {
  ctx = await createDemoContext();
});
after(async () => {
  for (const app of apps) await app.close();
  await ctx.close();
});

async function readyApp(schemas: ReturnType<typeof lazySchemas> | 'eager') {
  const app = await buildApp(ctx.deps, { schemas });
  apps.push(app);
  await app.ready();
  return app;
}

test('a ready app has compiled no route schema, and every one of them compiles', async () => {
  const schemas = lazySchemas();
  const app = await readyApp(schemas);
  const routes = app.printRoutes({ commonPrefix: false }).split('\n').length;
  const compiled = schemas.compileAll();
  // A validator or a serializer for most routes, each left for later by ready().
  assert.ok(compiled > routes, `${compiled} compiled for ${routes} route lines`);
  assert.equal(schemas.compileAll(), 0, 'nothing left to compile');
});

test("requests answer as with Fastify's own compilers: coerced parameters, validation errors, serialized bodies", async () => {
  const schemas = lazySchemas();
  const lazy = await readyApp(schemas);
  const eager = await readyApp('eager');
  // An app no request reaches: what a ready app leaves to compile.
  const untouched = lazySchemas();
  await readyApp(untouched);
  const requests: (InjectOptions & { url: string })[] = [
    { method: 'GET', url: '/v1/codes?limit=0' },
    { method: 'GET', url: '/v1/codes?limit=1' },
    { method: 'GET', url: '/v1/codes?limit=1&limit=2' },
    { method: 'GET', url: '/v1/codes?colour=red' },
    { method: 'GET', url: '/v1/codes/demo:A' },
    { method: 'GET', url: '/v1/codes/demo:NONE' },
    { method: 'GET', url: '/v1/codes/search?q=alp' },
    { method: 'GET', url: '/v1/changes?limit=abc' },
    { method: 'POST', url: '/v1/codes/batch', payload: { ids: ['demo:A', 'demo:NONE'] } },
    { method: 'POST', url: '/v1/codes/batch', payload: { ids: [] } },
    { method: 'POST', url: '/v1/codes/batch', payload: { ids: ['demo:A'], extra: 1 } },
  ];
  for (const request of requests) {
    const options = { ...request, headers: ctx.authHeaders };
    const [a, b] = [await lazy.inject(options), await eager.inject(options)];
    const label = `${request.method} ${request.url} ${JSON.stringify(request.payload ?? '')}`;
    assert.equal(a.statusCode, b.statusCode, label);
    assert.equal(a.headers['content-type'], b.headers['content-type'], label);
    // Each answer has its own request id.
    const body = (r: typeof a) => r.body.replaceAll(/req_[0-9a-f]{32}/g, 'req_');
    assert.equal(body(a), body(b), label);
  }
  // Not vacuous: the answers include a page, a 400 on limit and a batch.
  const page = await lazy.inject({ method: 'GET', url: '/v1/codes?limit=1', headers: ctx.authHeaders });
  assert.deepEqual(
    page.json().data.map((c: { id: string }) => c.id),
    ['demo:A'],
  );
  assert.equal((await lazy.inject({ method: 'GET', url: '/v1/codes?limit=0', headers: ctx.authHeaders })).json().error.param, 'limit');
  // The requests compiled what they used, and only that.
  const [left, all] = [schemas.compileAll(), untouched.compileAll()];
  assert.ok(left > 0 && left < all, `${left} of ${all} left`);
});

test('a route that validates request headers fails the start: the lazy compilers would not lower-case their names', async () => {
  const app = Fastify({ schemaController: { compilersFactory: lazySchemas().compilersFactory } });
  app.get('/', { schema: { headers: { type: 'object', properties: { 'X-Thing': { type: 'string' } } } } }, async () => 'ok');
  await assert.rejects(async () => {
    await app.ready();
  }, /request-header schemas are not supported/);
});
