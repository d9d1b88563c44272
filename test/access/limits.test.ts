/**
 * The per-minute rate and the monthly allowance with the injected clock:
 * exact counts, Retry-After and reset messages, crossing minute, month and
 * year boundaries, and the RateLimit fields (draft-11) on every authenticated
 * response.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKey, setPlan } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { apiOperations, seedRouteFixture, sendOperation } from '../helpers/routes.ts';
import { ALL_ENDPOINTS, assertError, bare, bearer, orgOnPlan, rateLimit } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

const DAY = 86_400;

test('exactly the rate passes in one UTC minute; then 429 until the next minute', async () => {
  ctx.clock.set('2026-03-15T12:00:30Z');
  const o = await orgOnPlan(ctx, 'minute-org', { name: 'minute', ratePerMinute: 5, monthlyQuota: 1000 });
  const monthT = 16 * DAY + 11 * 3600 + 59 * 60 + 30;
  for (let i = 1; i <= 5; i++) {
    const res = await bare(ctx, '/v1/codes', o.headers);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-policy'], '"minute";q=5;w=60, "month";q=1000');
    assert.equal(res.headers['ratelimit'], `"minute";r=${5 - i};t=30, "month";r=${1000 - i};t=${monthT}`);
  }
  const refused = await bare(ctx, '/v1/codes', o.headers);
  const error = assertError(refused, 429, 'rate_limit_exceeded');
  assert.equal(refused.headers['retry-after'], '30');
  assert.match(error.message, /reset/i);
  assert.match(error.message, /\b30 ?s|12:01/);
  assert.equal(refused.headers['ratelimit'], `"minute";r=0;t=30, "month";r=995;t=${monthT}`);

  ctx.clock.set('2026-03-15T12:00:59.500Z');
  const last = await bare(ctx, '/v1/codes', o.headers);
  assertError(last, 429, 'rate_limit_exceeded');
  assert.equal(last.headers['retry-after'], '1');

  ctx.clock.set('2026-03-15T12:01:00Z');
  const next = await bare(ctx, '/v1/codes', o.headers);
  assert.equal(next.statusCode, 200);
  assert.deepEqual(rateLimit(next).minute, { r: 4, t: 60 });
  assert.equal(rateLimit(next).month?.r, 994);
});

test('the monthly allowance runs out, says when it resets, and comes back on the first of the next month', async () => {
  ctx.clock.set('2026-03-31T23:00:00Z');
  const o = await orgOnPlan(ctx, 'month-org', { name: 'month', ratePerMinute: 1000, monthlyQuota: 3 });
  for (let i = 1; i <= 3; i++) {
    const res = await bare(ctx, '/v1/codes', o.headers);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(rateLimit(res).month, { r: 3 - i, t: 3600 });
  }
  const refused = await bare(ctx, '/v1/codes', o.headers);
  const error = assertError(refused, 429, 'monthly_quota_exceeded');
  assert.equal(refused.headers['retry-after'], '3600');
  assert.match(error.message, /2026-04-01/);

  ctx.clock.set('2026-03-31T23:59:59Z');
  const last = await bare(ctx, '/v1/codes', o.headers);
  assertError(last, 429, 'monthly_quota_exceeded');
  assert.equal(last.headers['retry-after'], '1');

  ctx.clock.set('2026-04-01T00:00:00Z');
  const april = await bare(ctx, '/v1/codes', o.headers);
  assert.equal(april.statusCode, 200);
  assert.deepEqual(rateLimit(april), { minute: { r: 999, t: 60 }, month: { r: 2, t: 30 * DAY } });

  // And across a year.
  ctx.clock.set('2026-12-31T23:59:30Z');
  for (let i = 0; i < 3; i++) assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  const december = await bare(ctx, '/v1/codes', o.headers);
  assertError(december, 429, 'monthly_quota_exceeded');
  assert.equal(december.headers['retry-after'], '30');
  assert.match(december.json().error.message, /2027-01-01/);
  ctx.clock.set('2027-01-01T00:00:00Z');
  const january = await bare(ctx, '/v1/codes', o.headers);
  assert.equal(january.statusCode, 200);
  assert.deepEqual(rateLimit(january).month, { r: 2, t: 31 * DAY });
});

test('a request refused by the minute rate uses none of the monthly allowance', async () => {
  ctx.clock.set('2026-05-10T08:00:00Z');
  const o = await orgOnPlan(ctx, 'rate-refused-org', { name: 'rate-refused', ratePerMinute: 2, monthlyQuota: 10 });
  for (let i = 0; i < 2; i++) assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  for (let i = 0; i < 5; i++) {
    const res = await bare(ctx, '/v1/codes', o.headers);
    assertError(res, 429, 'rate_limit_exceeded');
    assert.equal(rateLimit(res).month?.r, 8);
  }
  ctx.clock.advance(60_000);
  const res = await bare(ctx, '/v1/codes', o.headers);
  assert.equal(res.statusCode, 200);
  assert.equal(rateLimit(res).month?.r, 7);
});

test('a request refused by the monthly allowance uses none of the minute rate', async () => {
  ctx.clock.set('2026-05-10T09:00:00Z');
  const plan = { name: 'month-refused', endpoints: ALL_ENDPOINTS, ratePerMinute: 10, monthlyQuota: 2, testKeysAllowed: true };
  const o = await orgOnPlan(ctx, 'month-refused-org', plan);
  for (let i = 0; i < 2; i++) assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
  for (let i = 0; i < 5; i++) {
    const res = await bare(ctx, '/v1/codes', o.headers);
    assertError(res, 429, 'monthly_quota_exceeded');
    assert.equal(rateLimit(res).minute.r, 8);
  }
  // Same minute, more allowance: the minute still has 8 left.
  await setPlan(ctx.deps.admin, { ...plan, monthlyQuota: 100 });
  const res = await bare(ctx, '/v1/codes', o.headers);
  assert.equal(res.statusCode, 200);
  assert.deepEqual([rateLimit(res).minute.r, rateLimit(res).month?.r], [7, 97]);
});

test('limits are per organisation: its live and test keys share them; other organisations do not', async () => {
  ctx.clock.set('2026-06-01T10:00:00Z');
  const a = await orgOnPlan(ctx, 'shared-a', { name: 'shared', ratePerMinute: 3, monthlyQuota: 100 });
  const secondLive = await createKey(ctx.deps.admin, a.org, 'live', 'second');
  const testKey = await createKey(ctx.deps.admin, a.org, 'test', 'test');
  const b = await orgOnPlan(ctx, 'shared-b', { name: 'shared', ratePerMinute: 3, monthlyQuota: 100 });
  for (const key of [a.key, secondLive.key, testKey.key]) assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
  for (const key of [a.key, secondLive.key, testKey.key]) assertError(await bare(ctx, '/v1/codes', bearer(key)), 429, 'rate_limit_exceeded');
  const other = await bare(ctx, '/v1/codes', b.headers);
  assert.equal(other.statusCode, 200);
  assert.deepEqual(rateLimit(other).minute.r, 2);
});

test('RateLimit-Policy and RateLimit are on every authenticated /v1 response, whatever its status', async () => {
  ctx.clock.set('2026-07-20T06:30:15Z');
  const o = await orgOnPlan(ctx, 'headers-org', { name: 'headers', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 600, monthlyQuota: 1_000_000 });
  const monthT = 11 * DAY + 17 * 3600 + 29 * 60 + 45;
  const requests: [string, string, number, number][] = [
    // method, url, status, requests counted so far
    ['GET', '/v1/codes', 200, 1],
    ['GET', '/v1/codes/demo:A', 200, 2],
    ['GET', '/v1/codes?limit=-1', 400, 3],
    ['GET', '/v1/codes/demo:NOPE', 404, 4],
    ['GET', '/v1/changes', 403, 4],
    ['GET', '/v1/nowhere', 404, 4],
    ['DELETE', '/v1/codes', 405, 4],
    ['HEAD', '/v1/codes', 200, 5],
  ];
  for (const [method, url, status, counted] of requests) {
    const res = await ctx.app.inject({ method: method as 'GET', url, headers: o.headers });
    assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
    assert.equal(res.headers['ratelimit-policy'], '"minute";q=600;w=60, "month";q=1000000', `${method} ${url}`);
    assert.equal(res.headers['ratelimit'], `"minute";r=${600 - counted};t=45, "month";r=${1_000_000 - counted};t=${monthT}`, `${method} ${url}`);
  }
});

test('every operation counts once toward both limits, says so in RateLimit, and is refused by either when it is spent', async () => {
  ctx.clock.set('2026-08-10T10:00:20Z');
  const monthT = 21 * DAY + 13 * 3600 + 59 * 60 + 40;
  for (const [i, op] of apiOperations(ctx.app).entries()) {
    const minute = await orgOnPlan(ctx, `op-minute-${i}`, { name: `op-minute-${i}`, ratePerMinute: 2, monthlyQuota: 100 });
    for (const left of [1, 0]) {
      const res = await sendOperation(ctx, op, minute.headers);
      assert.equal(res.statusCode, op.ok, `${op.operationId}: ${res.body}`);
      assert.equal(res.headers['ratelimit-policy'], '"minute";q=2;w=60, "month";q=100', op.operationId);
      assert.equal(res.headers['ratelimit'], `"minute";r=${left};t=40, "month";r=${98 + left};t=${monthT}`, op.operationId);
    }
    const refused = await sendOperation(ctx, op, minute.headers);
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.equal(refused.headers['retry-after'], '40', op.operationId);

    const month = await orgOnPlan(ctx, `op-month-${i}`, { name: `op-month-${i}`, ratePerMinute: 100, monthlyQuota: 1 });
    assert.equal((await sendOperation(ctx, op, month.headers)).statusCode, op.ok, op.operationId);
    const spent = await sendOperation(ctx, op, month.headers);
    assertError(spent, 429, 'monthly_quota_exceeded');
    assert.equal(spent.headers['retry-after'], String(monthT), op.operationId);
  }
});

test('an unlimited plan has no month in its RateLimit fields', async () => {
  ctx.clock.set('2026-07-20T06:30:15Z');
  const o = await orgOnPlan(ctx, 'unlimited-org', { name: 'unlimited', ratePerMinute: 6000, monthlyQuota: null });
  for (let i = 1; i <= 3; i++) {
    const res = await bare(ctx, '/v1/codes', o.headers);
    assert.equal(res.headers['ratelimit-policy'], '"minute";q=6000;w=60');
    assert.equal(res.headers['ratelimit'], `"minute";r=${6000 - i};t=45`);
  }
  const notFound = await bare(ctx, '/v1/nowhere', o.headers);
  assert.equal(notFound.headers['ratelimit'], '"minute";r=5997;t=45');
});
