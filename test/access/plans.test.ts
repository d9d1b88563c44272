/**
 * Plans through HTTP: rule 8 (403 endpoint_not_available_on_plan, naming the
 * standard plans that include the endpoint, never an operator's own), plan changes taking effect on the next
 * request, the seeded defaults, and test keys a plan may disallow.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createOrg, createKey, setOrgPlan, setPlan } from '../../src/services/access/admin.ts';
import { DEFAULT_PLANS } from '../../src/domain/access.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { apiOperations, seedRouteFixture, sendOperation } from '../helpers/routes.ts';
import { ALL_ENDPOINTS, assertError, bare, bearer, orgOnPlan } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

/** The plan names listed after "include it" in a 403 message. */
function plansNamed(message: string): string[] {
  const m = /include[sd]? it:?\s*([^.]*)/i.exec(message);
  assert.ok(m, `the message does not list the plans that include the endpoint: ${message}`);
  return m[1]!
    .split(/,\s*|\s+and\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .sort();
}

test('every operation: 403 naming its endpoint on a plan without it, its success status on a plan with only it', async () => {
  const ops = apiOperations(ctx.app);
  for (const [i, op] of ops.entries()) {
    const others = ALL_ENDPOINTS.filter((e) => e !== op.endpoint);
    if (others.length > 0) {
      const without = await orgOnPlan(ctx, `without-${i}`, { name: `without-${i}`, endpoints: others });
      const error = assertError(await sendOperation(ctx, op, without.headers), 403, 'endpoint_not_available_on_plan');
      assert.ok(error.message.includes(`(${op.endpoint})`), `${op.operationId}: ${error.message}`);
      // Plans the operator made (test-all, the only-… ones) are never named to a customer: only the standard ones.
      const named = plansNamed(error.message);
      assert.deepEqual(
        named,
        DEFAULT_PLANS.filter((p) => p.endpoints.includes(op.endpoint))
          .map((p) => p.name)
          .sort(),
        `${op.operationId}: ${error.message}`,
      );
    }
    const only = await orgOnPlan(ctx, `only-${i}`, { name: `only-${i}`, endpoints: [op.endpoint] });
    const res = await sendOperation(ctx, op, only.headers);
    assert.equal(res.statusCode, op.ok, `${op.operationId} on a plan of ${op.endpoint} alone: ${res.body}`);
  }
});

test('a key on each seeded plan reaches exactly the operations its plan includes; a 403 names the seeded plans that include it', async () => {
  for (const plan of DEFAULT_PLANS) {
    const org = await createOrg(ctx.deps.admin, `seeded-walk-${plan.name}`, plan.name);
    const { key } = await createKey(ctx.deps.admin, org, 'live', 'k');
    for (const op of apiOperations(ctx.app)) {
      const res = await sendOperation(ctx, op, bearer(key));
      if (plan.endpoints.includes(op.endpoint)) {
        assert.equal(res.statusCode, op.ok, `${plan.name} ${op.operationId}: ${res.body}`);
        continue;
      }
      const error = assertError(res, 403, 'endpoint_not_available_on_plan');
      const named = plansNamed(error.message);
      for (const other of DEFAULT_PLANS)
        assert.equal(named.includes(other.name), other.endpoints.includes(op.endpoint), `${plan.name} ${op.operationId}: ${error.message}`);
    }
  }
});

test('the seeded plans have the endpoints and limits the README lists', async () => {
  const expected = {
    free: { policy: '"minute";q=60;w=60, "month";q=10000', changes: 403 },
    pro: { policy: '"minute";q=600;w=60, "month";q=1000000', changes: 200 },
    enterprise: { policy: '"minute";q=6000;w=60', changes: 200 },
  };
  for (const [plan, want] of Object.entries(expected)) {
    const org = await createOrg(ctx.deps.admin, `seeded-${plan}`, plan);
    const { key } = await createKey(ctx.deps.admin, org, 'live', 'k');
    const res = await bare(ctx, '/v1/codes', bearer(key));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-policy'], want.policy, plan);
    assert.equal((await bare(ctx, '/v1/changes', bearer(key))).statusCode, want.changes, plan);
  }
});

test('moving an organisation to another plan takes effect on its next request', async () => {
  const org = await createOrg(ctx.deps.admin, 'mover', 'free');
  const { key } = await createKey(ctx.deps.admin, org, 'live', 'k');
  assertError(await bare(ctx, '/v1/changes', bearer(key)), 403, 'endpoint_not_available_on_plan');
  await setOrgPlan(ctx.deps.admin, 'mover', 'pro');
  const res = await bare(ctx, '/v1/changes', bearer(key));
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['ratelimit-policy'], '"minute";q=600;w=60, "month";q=1000000');
  await setOrgPlan(ctx.deps.admin, 'mover', 'free');
  assertError(await bare(ctx, '/v1/changes', bearer(key)), 403, 'endpoint_not_available_on_plan');
});

test('changing a plan takes effect on the next request of its organisations', async () => {
  const o = await orgOnPlan(ctx, 'edited-org', { name: 'edited', ratePerMinute: 5, monthlyQuota: 50 });
  assert.equal((await bare(ctx, '/v1/changes', o.headers)).headers['ratelimit-policy'], '"minute";q=5;w=60, "month";q=50');
  await setPlan(ctx.deps.admin, { name: 'edited', endpoints: ['codes.get'], ratePerMinute: 7, monthlyQuota: null, testKeysAllowed: true });
  const error = assertError(await bare(ctx, '/v1/changes', o.headers), 403, 'endpoint_not_available_on_plan');
  assert.ok(!plansNamed(error.message).includes('edited'));
  const res = await bare(ctx, '/v1/codes/demo:A', o.headers);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['ratelimit-policy'], '"minute";q=7;w=60');
});

test('a plan without test keys refuses to create one, and its live keys work', async () => {
  const o = await orgOnPlan(ctx, 'live-only-org', { name: 'live-only', testKeysAllowed: false });
  await assert.rejects(createKey(ctx.deps.admin, o.org, 'test', 'k'), /test keys/);
  assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200);
});

test('a test key stops working when its plan stops allowing test keys, and works again when allowed', async () => {
  const o = await orgOnPlan(ctx, 'switch-org', { name: 'switch' });
  const { key } = await createKey(ctx.deps.admin, o.org, 'test', 'k');
  assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
  const plan = { name: 'switch', endpoints: ALL_ENDPOINTS, ratePerMinute: 1000, monthlyQuota: null };
  await setPlan(ctx.deps.admin, { ...plan, testKeysAllowed: false });
  assertError(await bare(ctx, '/v1/codes', bearer(key)), 403, 'endpoint_not_available_on_plan');
  assert.equal((await bare(ctx, '/v1/codes', o.headers)).statusCode, 200, 'the live key still works');
  await setPlan(ctx.deps.admin, { ...plan, testKeysAllowed: true });
  assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
});
