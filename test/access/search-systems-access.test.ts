/**
 * The plan gate and the limits apply to search and the systems endpoints as to
 * every other: the seeded free plan includes them, a plan without them is
 * refused with 403, and their requests count toward the minute and the month.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKey, createOrg } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare, bearer, orgOnPlan } from './helpers.ts';

const SEARCH = '/v1/codes/search?q=alp';
const SYSTEMS = ['/v1/systems', '/v1/systems/demo', '/v1/systems/demo/releases'];

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(() => ctx.close());

test('the seeded free plan includes codes.search and systems.list', async () => {
  const org = await createOrg(ctx.deps.admin, 'free-search', 'free');
  const { key } = await createKey(ctx.deps.admin, org, 'live', 'k');
  for (const url of [SEARCH, ...SYSTEMS]) assert.equal((await bare(ctx, url, bearer(key))).statusCode, 200, url);
  assertError(await bare(ctx, '/v1/changes', bearer(key)), 403, 'endpoint_not_available_on_plan');
});

test('a plan without codes.search or systems.list is refused with 403 on them', async () => {
  const o = await orgOnPlan(ctx, 'list-only-org', { name: 'list-only', endpoints: ['codes.list'] });
  for (const url of [SEARCH, ...SYSTEMS]) {
    const error = assertError(await bare(ctx, url, o.headers), 403, 'endpoint_not_available_on_plan');
    assert.match(error.message, url === SEARCH ? /codes\.search/ : /systems\.list/);
  }
  const searchOnly = await orgOnPlan(ctx, 'search-only-org', { name: 'search-only', endpoints: ['codes.search'] });
  assert.equal((await bare(ctx, SEARCH, searchOnly.headers)).statusCode, 200);
  assertError(await bare(ctx, '/v1/systems', searchOnly.headers), 403, 'endpoint_not_available_on_plan');
});

test('search and systems requests count toward the minute and the month', async () => {
  const o = await orgOnPlan(ctx, 'tiny-search-org', { name: 'tiny-search', ratePerMinute: 3, monthlyQuota: 1000 });
  assert.equal((await bare(ctx, SEARCH, o.headers)).statusCode, 200);
  assert.equal((await bare(ctx, '/v1/systems', o.headers)).statusCode, 200);
  assert.equal((await bare(ctx, '/v1/systems/nope', o.headers)).statusCode, 404, 'a 404 of the handler counts too');
  assertError(await bare(ctx, SEARCH, o.headers), 429, 'rate_limit_exceeded');
  assertError(await bare(ctx, '/v1/systems/demo/releases', o.headers), 429, 'rate_limit_exceeded');
});
