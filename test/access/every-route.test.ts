/**
 * The one shared authentication test: every /v1 operation of the OpenAPI
 * document (helpers/routes.ts), an unknown path and a wrong method answer
 * every authentication case the same way, and only an authenticated request
 * learns whether the route exists.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { apiOperations, seedRouteFixture, type Method } from '../helpers/routes.ts';
import { assertError, bearer, rateLimit, revokedKey, unknownKey } from './helpers.ts';

interface Route {
  method: Method;
  url: string;
  body?: unknown;
  /** Status for a request with a valid key. */
  ok: number;
  okCode?: string;
}

/** Besides every documented operation: a missing code, paths and methods that route nowhere. */
const EXTRA: Route[] = [
  { method: 'GET', url: '/v1/codes/demo:NOPE', ok: 404, okCode: 'code_not_found' },
  { method: 'GET', url: '/v1/codes/search?q=alp', ok: 200 },
  { method: 'GET', url: '/v1/systems', ok: 200 },
  { method: 'GET', url: '/v1/systems/demo', ok: 200 },
  { method: 'GET', url: '/v1/systems/demo/releases', ok: 200 },
  { method: 'GET', url: '/v1/systems/nope', ok: 404, okCode: 'system_not_found' },
  { method: 'POST', url: '/v1/codes/search?q=alp', ok: 405, okCode: 'method_not_allowed' },
  { method: 'DELETE', url: '/v1/systems/demo', ok: 405, okCode: 'method_not_allowed' },
  { method: 'GET', url: '/v1/no-such-route', ok: 404, okCode: 'route_not_found' },
  { method: 'GET', url: '/v1', ok: 404, okCode: 'route_not_found' },
  { method: 'DELETE', url: '/v1/codes', ok: 405, okCode: 'method_not_allowed' },
  { method: 'POST', url: '/v1/codes/demo:A/changes', ok: 405, okCode: 'method_not_allowed' },
];

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

test('every /v1 route applies the same authentication, before routing', async (t) => {
  const revoked = await revokedKey(ctx);
  const random = ctx.key.slice('svc_live_'.length);
  const refused: [string, Record<string, string>][] = [
    ['no key', {}],
    ['unknown key', bearer(unknownKey())],
    ['unknown key in X-API-Key', { 'x-api-key': unknownKey() }],
    ['wrong prefix', bearer(`svc_prod_${random}`)],
    ['31 characters', bearer(ctx.key.slice(0, -1))],
    ['33 characters', bearer(`${ctx.key}A`)],
    ['non-alphanumeric character', bearer(`${ctx.key.slice(0, -1)}-`)],
    ['revoked key', bearer(revoked)],
    ['revoked key in X-API-Key', { 'x-api-key': revoked }],
    ['Basic scheme', { authorization: `Basic ${Buffer.from(`${ctx.key}:x`).toString('base64')}` }],
    ['two different keys', { ...bearer(ctx.key), 'x-api-key': unknownKey() }],
  ];

  const routes: Route[] = [...apiOperations(ctx.app).map((op) => ({ ...op, ok: op.ok })), ...EXTRA];
  for (const route of routes) {
    await t.test(`${route.method} ${route.url}`, async () => {
      const send = (headers: Record<string, string>, url = route.url) =>
        ctx.app.inject({
          method: route.method,
          url,
          headers: route.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          ...(route.body === undefined ? {} : { payload: JSON.stringify(route.body) }),
        });

      for (const [name, headers] of refused) {
        const res = await send(headers);
        assert.equal(res.statusCode, 401, `${name}: ${res.statusCode} ${res.body}`);
        assertError(res, 401, 'invalid_api_key');
      }

      for (const headers of [bearer(ctx.key), { 'x-api-key': ctx.key }, { ...bearer(ctx.key), 'x-api-key': ctx.key }]) {
        const res = await send(headers);
        assert.equal(res.statusCode, route.ok, res.body);
        if (route.okCode) assertError(res, route.ok, route.okCode);
        // Authenticated: the caller learns where it stands with its limits.
        rateLimit(res);
      }

      // A key in the query string is refused before anything else, even beside a valid header.
      const sep = route.url.includes('?') ? '&' : '?';
      for (const headers of [{}, bearer(ctx.key)]) {
        assertError(await send(headers, `${route.url}${sep}api_key=${ctx.key}`), 400, 'api_key_in_query');
      }
    });
  }
});
