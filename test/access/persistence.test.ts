/**
 * Counts survive a graceful restart (close the deps, open them again on the
 * same file): the monthly allowance and the minute rate continue where they
 * stopped, and the per-key, per-day counts by outcome are all there.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createDeps, type Deps } from '../../src/deps.ts';
import { activityPath } from '../../src/store/sqlite/activity.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, revokeKey, usageReport } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bearer, orgOnPlan, rateLimit, unknownKey, within } from './helpers.ts';

let ctx: TestContext;
let deps: Deps;
let app: FastifyInstance;

before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  deps = ctx.deps;
  app = ctx.app;
});
after(async () => {
  if (running) await stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

let running = true;

async function stop(): Promise<void> {
  running = false;
  await app.close();
  await deps.close();
}

async function start(): Promise<void> {
  deps = await createDeps(ctx.config, { now: ctx.clock.now });
  app = await buildApp(deps);
  await app.ready();
  running = true;
}

/** A graceful stop and a start on the same database file, with the same clock. */
async function restart(): Promise<void> {
  await stop();
  await start();
}

const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });

async function report(slug: string, month: string) {
  const org = (await deps.store.access.getOrg(slug))!;
  return usageReport(deps.admin, org, month);
}

test('after a graceful restart the month and the minute continue where they stopped', async () => {
  ctx.clock.set('2026-03-15T12:00:30Z');
  const o = await orgOnPlan(ctx, 'restart-org', { name: 'restart', ratePerMinute: 6, monthlyQuota: 10 });
  for (let i = 0; i < 4; i++) assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  await restart();
  const res = await get('/v1/codes', o.headers);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(rateLimit(res), { minute: { r: 1, t: 30 }, month: { r: 5, t: 16 * 86_400 + 43_170 } });

  await restart();
  ctx.clock.advance(60_000);
  for (let i = 0; i < 5; i++) assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  await restart();
  assertError(await get('/v1/codes', o.headers), 429, 'monthly_quota_exceeded');
  assert.equal((await report('restart-org', '2026-03')).counted, 10);
});

test('per-key, per-day counts by outcome are kept, and survive a restart', async () => {
  ctx.clock.set('2026-03-20T10:00:00Z');
  const o = await orgOnPlan(ctx, 'usage-org', { name: 'usage', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 6, monthlyQuota: 100 }, deps.admin);
  const testKey = await createKey(deps.admin, o.org, 'test', 'staging');
  const revoked = await createKey(deps.admin, o.org, 'live', 'old');
  assert.equal((await get('/v1/codes', bearer(revoked.key))).statusCode, 200);
  await revokeKey(deps.admin, revoked.info.id);

  for (let i = 0; i < 3; i++) assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  assertError(await get('/v1/codes?limit=0', o.headers), 400, 'invalid_parameter');
  assertError(await get('/v1/codes/demo:NOPE', o.headers), 404, 'code_not_found');
  assertError(await get('/v1/nowhere', o.headers), 404, 'route_not_found');
  assertError(await get('/v1/changes', o.headers), 403, 'endpoint_not_available_on_plan');
  // 1 + 3 + 2 = 6 counted: the minute is used up.
  assertError(await get('/v1/codes', o.headers), 429, 'rate_limit_exceeded');
  assertError(await get('/v1/codes', o.headers), 429, 'rate_limit_exceeded');
  assertError(await get('/v1/codes', bearer(revoked.key)), 401, 'invalid_api_key');
  assertError(await get('/v1/codes', bearer(revoked.key)), 401, 'invalid_api_key');
  assertError(await get('/v1/codes', bearer(unknownKey())), 401, 'invalid_api_key');
  ctx.clock.set('2026-03-21T00:00:05Z');
  assert.equal((await get('/v1/codes', bearer(testKey.key))).statusCode, 200);

  await restart();
  const r = await report('usage-org', '2026-03');
  assert.equal(r.counted, 7);
  const byKey = Object.fromEntries(r.byKey.map((k) => [k.keyId, { mode: k.mode, prefix: k.displayPrefix, ...k.byOutcome }]));
  assert.deepEqual(byKey, {
    [o.keyId]: { mode: 'live', prefix: o.key.slice(0, 13), ok: 3, client_error: 2, refused_route: 1, refused_auth: 1, refused_limit: 2 },
    [testKey.info.id]: { mode: 'test', prefix: testKey.key.slice(0, 13), ok: 1 },
    [revoked.info.id]: { mode: 'live', prefix: revoked.key.slice(0, 13), ok: 1, refused_auth: 2 },
  });
  assert.deepEqual(r.byDay, [
    { day: '2026-03-20', byOutcome: { ok: 4, client_error: 2, refused_route: 1, refused_auth: 3, refused_limit: 2 } },
    { day: '2026-03-21', byOutcome: { ok: 1 } },
  ]);
  assert.deepEqual(r.byOutcome, { ok: 5, client_error: 2, refused_route: 1, refused_auth: 3, refused_limit: 2 });
  // The allowance holds exactly the requests that passed the limits; the rest are not counted, by reason.
  assert.equal(r.counted, r.byOutcome.ok + r.byOutcome.client_error);
  assert.deepEqual(r.notCounted, { refused_auth: 3, refused_route: 1, refused_limit: 2, server_error: 0 });
  assert.equal(r.total, 13);
  // Another month has nothing.
  assert.deepEqual((await report('usage-org', '2026-02')).byKey, []);
});

test('the last requests of a month are kept when the next month begins before they were written', async () => {
  ctx.clock.set('2026-03-31T23:59:58Z');
  const o = await orgOnPlan(ctx, 'turn-org', { name: 'turn', ratePerMinute: 100, monthlyQuota: 100 }, deps.admin);
  for (let i = 0; i < 3; i++) assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  ctx.clock.set('2026-04-01T00:00:00Z');
  assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  await restart();
  assert.equal((await report('turn-org', '2026-03')).counted, 3);
  assert.equal((await report('turn-org', '2026-04')).counted, 1);
});

test("a graceful stop while another process holds the activity file's write lock still writes every count", async () => {
  ctx.clock.set('2026-03-25T08:00:00Z');
  const o = await orgOnPlan(ctx, 'busy-org', { name: 'busy', ratePerMinute: 100, monthlyQuota: 100 }, deps.admin);
  for (let i = 0; i < 2; i++) assert.equal((await get('/v1/codes', o.headers)).statusCode, 200);
  assertError(await get('/v1/codes/demo:NOPE', o.headers), 404, 'code_not_found');
  // The counts' file (an import's lock on the main file no longer holds them back: sqlite-activity.test.ts).
  const other = new DatabaseSync(activityPath(ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : ''));
  other.exec('BEGIN IMMEDIATE');
  // The writer lets go a little after the stop began.
  const release = setTimeout(() => other.exec('ROLLBACK'), 300);
  try {
    await within(15_000, 'graceful stop', stop());
  } finally {
    clearTimeout(release);
    if (other.isTransaction) other.exec('ROLLBACK');
    other.close();
  }
  await start();
  const r = await report('busy-org', '2026-03');
  assert.equal(r.counted, 3);
  assert.deepEqual(r.byOutcome, { ok: 2, client_error: 1 });
});
