/**
 * Expiry and roll, at their exact moments: a key works up to the millisecond
 * before it ends and is refused, exactly as a revoked key is, from that
 * millisecond on, also when the lookup was cached and nothing was written in
 * between; and on a second instance over the same database file.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createOrg, revokeKey } from '../../src/services/access/admin.ts';
import { createExpiringKey, parseExpiry, rollKey } from '../../src/services/access/key-life.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare, bearer, randomPart, revokedKey } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(async () => ctx.close());

const status = async (key: string, app: FastifyInstance = ctx.app) =>
  (await app.inject({ method: 'GET', url: '/v1/codes?limit=1', headers: bearer(key) })).statusCode;
const iso = (ms: number) => new Date(ms).toISOString();

describe('expiry', () => {
  test('a key works until the millisecond it expires, then answers exactly as a revoked key, though its lookup was cached', async () => {
    const ends = ctx.clock.ms + 3_600_000;
    const { key } = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'short', expiresAt: iso(ends) }, 'test');
    assert.equal(await status(key), 200);
    assert.equal(await status(key), 200, 'cached');
    ctx.clock.set(iso(ends - 1));
    assert.equal(await status(key), 200, 'one millisecond before its end');
    ctx.clock.set(iso(ends));
    const expired = assertError(await bare(ctx, '/v1/codes?limit=1', bearer(key)), 401, 'invalid_api_key');
    const revoked = assertError(await bare(ctx, '/v1/codes?limit=1', bearer(await revokedKey(ctx))), 401, 'invalid_api_key');
    assert.equal(expired.message, revoked.message, 'an expired key answers as a revoked one');
    assert.equal(await status(key), 401, 'and stays refused');
  });

  test('an expiry is given as never, days, a date or a time; the past and nonsense are refused', () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    assert.equal(parseExpiry('never', now), null);
    assert.equal(parseExpiry('', now), null);
    assert.equal(parseExpiry('30d', now), '2026-04-14T12:00:00.000Z');
    assert.equal(parseExpiry('90', now), '2026-06-13T12:00:00.000Z');
    assert.equal(parseExpiry('2026-04-01', now), '2026-04-02T00:00:00.000Z', 'a date: the key works through that UTC day');
    assert.equal(parseExpiry('2026-03-15T13:30:00+01:00', now), '2026-03-15T12:30:00.000Z');
    for (const bad of ['2026-03-14', '2026-03-15T11:00:00Z', 'tomorrow', '2026-02-30', '0d', '99999d']) {
      assert.throws(() => parseExpiry(bad, now), { name: 'InvalidRequest' }, bad);
    }
  });

  test('a day or time that does not exist is refused as such, not moved to the next one', () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    for (const bad of [
      '2027-02-30',
      '2027-04-31',
      '2027-13-01',
      '2027-02-30T12:00:00Z',
      '2027-01-01T24:00:00Z',
      '2027-01-01T12:60:00Z',
      '2027-01-01T12:00:60Z',
      '2027-01-01T12:00:00+24:00',
    ]) {
      assert.throws(() => parseExpiry(bad, now), { name: 'InvalidRequest', message: `expiry "${bad}" is not a real date` }, bad);
    }
    assert.equal(parseExpiry('2028-02-29', now), '2028-03-01T00:00:00.000Z', 'a leap day is real');
    assert.equal(parseExpiry('2027-12-31T23:59:59.999Z', now), '2027-12-31T23:59:59.999Z');
    assert.equal(parseExpiry('2027-01-01T00:30:00-23:59', now), '2027-01-02T00:29:00.000Z');
  });
});

describe('roll', () => {
  test('both keys work during the grace period; at its end the old key is refused on the very next request', async () => {
    const { key: old, info } = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'deploy', expiresAt: null }, 'test');
    assert.equal(await status(old), 200);
    const start = ctx.clock.ms;
    const rolled = await rollKey(ctx.deps.admin, info.id, '1h', 'ops@example.com');
    assert.equal(rolled.info.name, 'deploy');
    assert.equal(rolled.info.mode, 'live');
    assert.equal(rolled.info.orgId, ctx.org.id);
    assert.equal(rolled.previous.expiresAt, iso(start + 3_600_000));
    assert.deepEqual([await status(old), await status(rolled.key)], [200, 200]);
    ctx.clock.set(iso(start + 3_600_000 - 1));
    assert.deepEqual([await status(old), await status(rolled.key)], [200, 200]);
    ctx.clock.set(iso(start + 3_600_000));
    assert.deepEqual([await status(old), await status(rolled.key)], [401, 200]);

    const entry = (await ctx.store.dashboard.listAudit(ctx.org.id, 50)).find((e) => e.action === 'key.rolled')!;
    assert.equal(entry.actor, 'ops@example.com');
    assert.ok(entry.target.includes(`${info.displayPrefix}…`) && entry.target.includes(`${rolled.info.displayPrefix}…`), entry.target);
    for (const k of [old, rolled.key]) assert.ok(!entry.target.includes(randomPart(k)), 'the audit entry holds no key');
  });

  test('"now": the old key is refused on the next request; an old key expiring sooner keeps its end', async () => {
    const { key, info } = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'test', name: 'ci', expiresAt: null }, 'test');
    assert.equal(await status(key), 200);
    const rolled = await rollKey(ctx.deps.admin, info.id, 'now', 'test');
    assert.equal(await status(key), 401);
    assert.equal(await status(rolled.key), 200);
    assert.equal(rolled.info.mode, 'test');

    const soon = iso(ctx.clock.ms + 60_000);
    const short = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'short', expiresAt: soon }, 'test');
    assert.equal((await rollKey(ctx.deps.admin, short.info.id, '7d', 'test')).previous.expiresAt, soon, 'a roll never lengthens a key');
  });

  test('only an active key of the organisation can be rolled', async () => {
    const { info } = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'gone', expiresAt: null }, 'test');
    await revokeKey(ctx.deps.admin, info.id);
    await assert.rejects(rollKey(ctx.deps.admin, info.id, '1h', 'test'), /is revoked: only an active key can be rolled/);
    const other = await createOrg(ctx.deps.admin, 'other-roll', 'test-all');
    const mine = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'mine', expiresAt: null }, 'test');
    await assert.rejects(rollKey(ctx.deps.admin, mine.info.id, '1h', 'test', other), /no key/);
    const ends = iso(ctx.clock.ms + 1000);
    const expiring = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'brief', expiresAt: ends }, 'test');
    ctx.clock.advance(1000);
    await assert.rejects(rollKey(ctx.deps.admin, expiring.info.id, '1h', 'test'), /is expired/);
  });
});

describe('two instances over one database file', () => {
  let b: { deps: Deps; app: FastifyInstance };
  before(async () => {
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(ctx.dir, 'codebook.db')}`, LOG_LEVEL: 'silent' });
    const deps = await createDeps(config, { now: ctx.clock.now });
    b = { deps, app: await buildApp(deps) };
  });
  after(async () => {
    await b.app.close();
    await b.deps.close();
  });

  test('a roll on one is seen by the other at once, and the grace end holds on both with nothing written at that moment', async () => {
    const { key: old, info } = await createExpiringKey(ctx.deps.admin, ctx.org, { mode: 'live', name: 'pair', expiresAt: null }, 'test');
    for (const app of [ctx.app, b.app, ctx.app, b.app]) assert.equal(await status(old, app), 200, 'warm both caches');
    const start = ctx.clock.ms;
    const rolled = await rollKey(ctx.deps.admin, info.id, '24h', 'test');
    assert.equal(await status(rolled.key, b.app), 200, 'the successor works on the other instance at once');
    ctx.clock.set(iso(start + 86_400_000 - 1));
    assert.deepEqual([await status(old, ctx.app), await status(old, b.app)], [200, 200]);
    ctx.clock.set(iso(start + 86_400_000));
    assert.deepEqual([await status(old, b.app), await status(old, ctx.app)], [401, 401]);
    assert.deepEqual([await status(rolled.key, b.app), await status(rolled.key, ctx.app)], [200, 200]);
  });
});
