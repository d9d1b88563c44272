/**
 * Requests the service fails (5xx), on the embedded limiter and on Redis:
 * they count toward the minute, are given back to the monthly allowance, and
 * usage records them as server errors, in the report, the CLI's numbers and
 * the dashboard alike. The faults come from a real SQLite store whose reads
 * fail on demand: a broken read (500) and an unreachable database (503).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import type { Plan } from '../../src/domain/access.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan, usageReport } from '../../src/services/access/admin.ts';
import { startSession } from '../../src/services/dashboard/sessions.ts';
import { createUser } from '../../src/services/dashboard/users.ts';
import { FaultyStore } from '../helpers/faulty-store.ts';
import { importRowsInto, TestClock, tempDir } from '../helpers/context.ts';
import { deleteUnder, redisClient, runPrefix } from '../helpers/redis.ts';
import { REDIS_URL, skipUnlessRedis } from '../helpers/services.ts';
import { assertError, rateLimit } from './helpers.ts';

const PLAN: Plan = { name: 'small', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 100, monthlyQuota: 3, testKeysAllowed: true };

for (const backend of ['memory', 'redis'] as const) {
  const skip = backend === 'redis' ? await skipUnlessRedis() : false;

  describe(`5xx answers with the ${backend} limiter`, { skip }, () => {
    const dir = tempDir();
    const prefix = runPrefix('server-errors');
    const clock = new TestClock();
    let store: FaultyStore;
    let deps: Deps;
    let app: FastifyInstance;
    let orgId: string;
    let headers: Record<string, string>;

    before(async () => {
      const path = join(dir, 'codebook.db');
      // No read cache: the store's faults must reach the handler (a cached record would be served instead).
      const env = { DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent', READ_CACHE_MB: '0' };
      const config = loadConfig({ ...env, ...(backend === 'redis' ? { REDIS_URL, REDIS_PREFIX: prefix } : {}) });
      store = new FaultyStore({ path });
      deps = await createDeps(config, { now: clock.now, store, onWarning: () => undefined });
      app = await buildApp(deps);
      await importRowsInto(store, dir, [{ code: 'A', display: 'Alpha' }], { system: 't', release: 'r1', effectiveDate: '2024-01-01' });
      await setPlan(deps.admin, PLAN);
      const org = await createOrg(deps.admin, 'fails', PLAN.name);
      orgId = org.id;
      headers = { authorization: `Bearer ${(await createKey(deps.admin, org, 'live', 'k')).key}` };
    });
    after(async () => {
      await app?.close();
      await deps?.close();
      rmSync(dir, { recursive: true, force: true });
      if (backend === 'redis') {
        const client = redisClient();
        await deleteUnder(client, prefix);
        client.disconnect();
      }
    });

    const get = async (url: string, fault: FaultyStore['fault'] = null) => {
      store.fault = fault;
      try {
        return await app.inject({ method: 'GET', url, headers });
      } finally {
        store.fault = null;
      }
    };
    /** The limiter's month once the request given back has reached it (a Redis round trip after the response). */
    const monthRemainingBecomes = async (expected: number) => {
      let remaining: number | null = null;
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(10)) {
        remaining = (await deps.limiter.peek(orgId, PLAN, clock.now())).month.remaining;
        if (remaining === expected) return;
      }
      assert.equal(remaining, expected, 'requests left in the month');
    };

    test('a failed request uses none of the allowance, counts toward the minute, and is recorded as a server error', async () => {
      clock.set('2026-03-15T12:00:30Z');
      for (let i = 0; i < 2; i++) assert.equal((await get('/v1/codes/t:A')).statusCode, 200);

      const broken = await get('/v1/codes/t:A', 'broken');
      assertError(broken, 500, 'internal_error');
      // Its RateLimit field counts the request given back: one of the three remains, as the next answer says too.
      assert.equal(rateLimit(broken).month?.r, 1);
      assert.equal(rateLimit(broken).minute.r, 97, 'the minute keeps it');
      await monthRemainingBecomes(1);
      const outage = await get('/v1/codes?limit=5', 'unreachable');
      assertError(outage, 503, 'service_unavailable');
      assert.equal(outage.headers['retry-after'], '5');
      assert.equal(rateLimit(outage).month?.r, 1);
      await monthRemainingBecomes(1);

      // The third request the plan allows is still served; the fourth is refused.
      const third = await get('/v1/codes/t:A');
      assert.equal(third.statusCode, 200);
      assert.deepEqual(rateLimit(third), { minute: { r: 95, t: 30 }, month: { r: 0, t: rateLimit(third).month!.t } }, 'the minute counted all five');
      const refused = await get('/v1/codes/t:A');
      assertError(refused, 429, 'monthly_quota_exceeded');
      assert.equal(rateLimit(refused).minute.r, 95, 'a refusal counts toward neither');

      await deps.limiter.flush();
      await deps.usage.flush();
      const report = await usageReport(deps.admin, (await deps.store.access.getOrgById(orgId))!, '2026-03');
      assert.deepEqual(report.byOutcome, { ok: 3, server_error: 2, refused_limit: 1 });
      assert.equal(report.counted, 3, 'the allowance holds the three answered requests');
      assert.deepEqual(report.notCounted, { refused_auth: 0, refused_route: 0, refused_limit: 1, server_error: 2 });
      assert.equal(report.total, 6);
    });

    test('the dashboard shows the same: 3 of 3 used, 3 not counted (2 server errors, 1 refused), 6 in all', async () => {
      const org = (await deps.store.access.getOrgById(orgId))!;
      const { user } = await createUser(deps.admin, org, `${backend}@example.com`);
      const { token } = await startSession(deps.admin, user);
      const page = await app.inject({ method: 'GET', url: '/dashboard/', headers: { cookie: `cb_session=${token}` } });
      assert.equal(page.statusCode, 200);
      const text = page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      assert.match(text, /3 of 3 requests used/);
      assert.match(text, /Counted toward the allowance [^0-9]*3 Not counted 3 /);
      assert.match(text, /Server errors, given back to the allowance \(5xx\) 2 /);
      assert.match(text, /Refused by a limit \(429\) 1 /);
      assert.match(text, /All requests with a known key 6 /);
    });
  });
}
