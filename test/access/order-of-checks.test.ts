/**
 * The order of checks (README, Errors), first failure wins: key in query (400) →
 * authentication (401) → route (404/405) → plan (403) → monthly allowance
 * (429) → minute rate (429) → parameters (400) → the handler (404/200). And
 * what counts: nothing before the limits, one request for anything after.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { EndpointName } from '../../src/domain/access.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { apiOperations, seedRouteFixture, sendOperation } from '../helpers/routes.ts';
import { ALL_ENDPOINTS, assertError, bare, bearer, orgOnPlan, rateLimit, revokedKey, unknownKey } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

test('a key in the query beats 401 (no key, unknown, revoked) and 404/405', async () => {
  const revoked = await revokedKey(ctx);
  for (const headers of [{}, bearer(unknownKey()), bearer(revoked), { authorization: 'Basic abc' }]) {
    assertError(await bare(ctx, `/v1/codes?api_key=${ctx.key}`, headers), 400, 'api_key_in_query');
    assertError(await bare(ctx, `/v1/nowhere?api_key=${ctx.key}`, headers), 400, 'api_key_in_query');
    assertError(await bare(ctx, `/v1/codes?api_key=${ctx.key}`, headers, 'DELETE'), 400, 'api_key_in_query');
  }
});

test('401 beats 404 and 405', async () => {
  for (const headers of [{}, bearer(unknownKey()), bearer(await revokedKey(ctx))]) {
    assertError(await bare(ctx, '/v1/nowhere', headers), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/codes/demo:NOPE', headers), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/codes', headers, 'DELETE'), 401, 'invalid_api_key');
  }
});

test('404 and 405 beat 403: a plan without the endpoint still learns the route is wrong', async () => {
  const codesOnly = await orgOnPlan(ctx, 'codes-only-org', { name: 'codes-only', endpoints: ['codes.list'] });
  assertError(await bare(ctx, '/v1/changes', codesOnly.headers), 403, 'endpoint_not_available_on_plan');
  assertError(await bare(ctx, '/v1/changes', codesOnly.headers, 'DELETE'), 405, 'method_not_allowed');
  assertError(await bare(ctx, '/v1/codes/demo:A', codesOnly.headers, 'PUT'), 405, 'method_not_allowed');
  assertError(await bare(ctx, '/v1/changes/extra', codesOnly.headers), 404, 'route_not_found');
  assertError(await bare(ctx, '/v1/nowhere', codesOnly.headers), 404, 'route_not_found');
});

test('403 beats 429 when the allowance is used up', async () => {
  const o = await orgOnPlan(ctx, 'tiny-org', { name: 'tiny', endpoints: ['codes.list'], ratePerMinute: 1, monthlyQuota: 1 });
  assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  assertError(await bare(ctx, '/v1/codes', o.headers), 429, 'monthly_quota_exceeded');
  const refused = assertError(await bare(ctx, '/v1/changes', o.headers), 403, 'endpoint_not_available_on_plan');
  assert.match(refused.message, /changes\.list/);
  assertError(await bare(ctx, '/v1/codes/demo:A', o.headers), 403, 'endpoint_not_available_on_plan');
});

test('the monthly 429 beats the minute 429 when both are used up', async () => {
  const o = await orgOnPlan(ctx, 'both-org', { name: 'both', ratePerMinute: 2, monthlyQuota: 2 });
  for (let i = 0; i < 2; i++) assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  const res = await bare(ctx, '/v1/codes', o.headers);
  assertError(res, 429, 'monthly_quota_exceeded');
  assert.deepEqual(rateLimit(res).minute.r, 0);
});

test('429 beats parameter errors, unknown codes and bad cursors', async () => {
  for (const [name, limits] of [
    ['minute', { ratePerMinute: 1, monthlyQuota: 100 }],
    ['month', { ratePerMinute: 100, monthlyQuota: 1 }],
  ] as const) {
    const o = await orgOnPlan(ctx, `spent-${name}-org`, { name: `spent-${name}`, ...limits });
    assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
    const code = name === 'minute' ? 'rate_limit_exceeded' : 'monthly_quota_exceeded';
    for (const url of [
      '/v1/codes?limit=abc',
      '/v1/codes?offset=10',
      '/v1/codes?cursor=garbage',
      '/v1/changes?effective_from=yesterday',
      '/v1/codes/demo:NOPE',
    ]) {
      assertError(await bare(ctx, url, o.headers), 429, code);
    }
  }
});

test('requests refused before the limits count toward neither limit', async () => {
  const o = await orgOnPlan(ctx, 'before-org', { name: 'before', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 3, monthlyQuota: 10 });
  const start = rateLimit(await bare(ctx, '/v1/nowhere', o.headers));
  assert.deepEqual(start.minute.r, 3);
  assert.deepEqual(start.month?.r, 10);
  for (let i = 0; i < 5; i++) {
    assertError(await bare(ctx, `/v1/codes?k=${o.key}`, o.headers), 400, 'api_key_in_query');
    assertError(await bare(ctx, '/v1/codes', { ...o.headers, 'x-api-key': unknownKey() }), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/nowhere', o.headers), 404, 'route_not_found');
    assertError(await bare(ctx, '/v1/codes', o.headers, 'POST'), 405, 'method_not_allowed');
    assertError(await bare(ctx, '/v1/changes', o.headers), 403, 'endpoint_not_available_on_plan');
  }
  const now = rateLimit(await bare(ctx, '/v1/nowhere', o.headers));
  assert.deepEqual(now, start);
  // The whole minute's allowance is still there.
  for (let i = 0; i < 3; i++) assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  assertError(await bare(ctx, '/v1/codes', o.headers), 429, 'rate_limit_exceeded');
});

test('an empty code id or system in the path is no route: 404 route_not_found, refused before the limits', async () => {
  const o = await orgOnPlan(ctx, 'empty-segment-org', { name: 'empty-segment', ratePerMinute: 3, monthlyQuota: 10 });
  const start = rateLimit(await bare(ctx, '/v1/nowhere', o.headers));
  const paths: [string, string][] = [
    ['/v1/codes/', 'code_id'],
    ['/v1/codes//children', 'code_id'],
    ['/v1/systems/', 'system'],
    ['/v1/systems//releases', 'system'],
    ['/v1/systems//roots', 'system'],
  ];
  for (const [url, param] of paths) {
    const res = await bare(ctx, url, o.headers);
    const refused = assertError(res, 404, 'route_not_found');
    assert.equal(refused.param, param, url);
    assert.deepEqual(rateLimit(res), start, `${url}: counted`);
  }
  assert.match(assertError(await bare(ctx, '/v1/systems/', o.headers), 404, 'route_not_found').message, /\/v1\/systems\/iso4217/);
});

test('a request that passes the limits counts toward both, whatever its final status', async () => {
  const o = await orgOnPlan(ctx, 'after-org', { name: 'after', ratePerMinute: 100, monthlyQuota: 1000 });
  const cases: [string, number, string | null][] = [
    ['/v1/codes', 200, null],
    ['/v1/codes?limit=0', 400, 'invalid_parameter'],
    ['/v1/codes?limit=abc', 400, 'invalid_parameter'],
    ['/v1/codes?page=2', 400, 'unknown_parameter'],
    ['/v1/codes?cursor=garbage', 400, 'invalid_cursor'],
    ['/v1/changes?effective_to=2024-13-45', 400, 'invalid_parameter'],
    ['/v1/codes/demo:NOPE', 404, 'code_not_found'],
    ['/v1/codes/demo:NOPE/changes', 404, 'code_not_found'],
  ];
  let expected = { minute: 100, month: 1000 };
  for (const [url, status, code] of cases) {
    const res = await bare(ctx, url, o.headers);
    if (code) assertError(res, status, code);
    else assert.equal(res.statusCode, status);
    expected = { minute: expected.minute - 1, month: expected.month - 1 };
    const state = rateLimit(res);
    assert.deepEqual([state.minute.r, state.month?.r], [expected.minute, expected.month], `after ${url}`);
  }
});

test('every operation checks in the documented order, each failure first in turn, and only what passes the limits counts', async () => {
  for (const [i, op] of apiOperations(ctx.app).entries()) {
    const sep = op.url.includes('?') ? '&' : '?';
    const badParameter = `${op.url}${sep}no_such_parameter=1`;
    const o = await orgOnPlan(ctx, `order-${i}`, { name: `order-${i}`, ratePerMinute: 2, monthlyQuota: 100 });
    const others = ALL_ENDPOINTS.filter((e) => e !== op.endpoint);
    const what = op.operationId;

    assertError(await sendOperation(ctx, op, {}, `${op.url}${sep}key=${o.key}`), 400, 'api_key_in_query');
    assertError(await sendOperation(ctx, op, bearer(unknownKey()), badParameter), 401, 'invalid_api_key');
    if (others.length > 0) {
      const noPlan = await orgOnPlan(ctx, `order-no-plan-${i}`, { name: `order-no-plan-${i}`, endpoints: others });
      assertError(await sendOperation(ctx, op, noPlan.headers, badParameter), 403, 'endpoint_not_available_on_plan');
    }
    // Nothing so far counted: the minute still holds both requests.
    assertError(await sendOperation(ctx, op, o.headers, badParameter), 400, 'unknown_parameter');
    assert.equal((await sendOperation(ctx, op, o.headers)).statusCode, op.ok, what);
    const refused = await sendOperation(ctx, op, o.headers, badParameter);
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.equal(rateLimit(refused).month?.r, 98, `${what}: the 400 and the ${op.ok} counted, nothing before them`);
  }
});

test('a path segment the router cannot take is a bad parameter: after the plan and the limits, and counted', async () => {
  const bad: [string, string][] = [
    ['%ZZ', 'not valid percent-encoding'],
    ['demo:%FF', 'not valid percent-encoding'],
    ['demo%3A%E0%A4%A', 'not valid percent-encoding'],
    [`demo:${'x'.repeat(3000)}`, 'too long'],
  ];
  const routes: [string, EndpointName, string][] = [
    ['/v1/codes/{}', 'codes.get', 'code_id'],
    ['/v1/codes/{}/changes', 'changes.list', 'code_id'],
    ['/v1/codes/{}/children', 'codes.hierarchy', 'code_id'],
    ['/v1/codes/{}/ancestors', 'codes.hierarchy', 'code_id'],
    ['/v1/systems/{}', 'systems.list', 'system'],
    ['/v1/systems/{}/roots', 'codes.hierarchy', 'system'],
  ];
  for (const [i, [route, endpoint, param]] of routes.entries()) {
    const o = await orgOnPlan(ctx, `unroutable-${i}`, { name: `unroutable-${i}`, ratePerMinute: bad.length, monthlyQuota: 100 });
    const noPlan = await orgOnPlan(ctx, `unroutable-no-plan-${i}`, { name: `unroutable-no-plan-${i}`, endpoints: ALL_ENDPOINTS.filter((e) => e !== endpoint) });
    for (const [j, [segment, says]] of bad.entries()) {
      const url = route.replace('{}', segment);
      const what = `${route} with ${segment.slice(0, 20)}`;
      assertError(await bare(ctx, url, noPlan.headers), 403, 'endpoint_not_available_on_plan');
      const res = await bare(ctx, url, o.headers);
      const refused = assertError(res, 400, 'invalid_parameter');
      assert.equal(refused.param, param, what);
      assert.match(refused.message, new RegExp(says), what);
      assert.deepEqual([rateLimit(res).minute.r, rateLimit(res).month?.r], [bad.length - j - 1, 100 - j - 1], `${what}: counted`);
    }
    assertError(await bare(ctx, route.replace('{}', bad[0]![0]), o.headers), 429, 'rate_limit_exceeded');
  }
});
