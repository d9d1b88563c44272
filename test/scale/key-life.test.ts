/**
 * Keys' exact moments on two instances over PostgreSQL, with Redis and
 * without: the old key of a roll is refused by the very next request to either
 * instance once the grace period ends, and an expired key likewise, though both
 * had the lookup cached and nothing ran at that moment. Every instance's
 * requests land in the one request log; an exposure seen by one is revoked for
 * both when the organisation asks for it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createExpiringKey, rollKey, updateOrgSettings } from '../../src/services/access/key-life.ts';
import { pageRequestLog } from '../../src/services/access/request-log.ts';
import { TestClock } from '../helpers/context.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { skipUnlessBoth } from '../helpers/services.ts';

const skip = await skipUnlessBoth();
const iso = (ms: number) => new Date(ms).toISOString();

async function statuses(instances: Instance[], key: string): Promise<number[]> {
  const out: number[] = [];
  for (const instance of instances) out.push((await instance.get('/v1/codes?limit=1', key)).status);
  return out;
}

for (const redis of [true, false]) {
  describe(`keys' exact moments on two instances (PostgreSQL ${redis ? 'and Redis' : 'without Redis'})`, { skip }, () => {
    let cluster: Cluster;
    let a: Instance;
    let b: Instance;
    // Real time to start with (Redis windows expire in real time), then moved by the tests.
    const clock = new TestClock(Date.now());

    before(async () => {
      cluster = await createCluster(redis ? 'keylife_redis' : 'keylife_pg');
      a = await cluster.instance({ now: clock.now, redisUrl: redis ? undefined : null });
      b = await cluster.instance({ now: clock.now, redisUrl: redis ? undefined : null });
    });
    after(async () => cluster?.close());

    test('roll: during the grace period both keys work everywhere; at its end the old one is refused by both', async () => {
      const { org, key: old, keyId } = await cluster.customer('roller', { ratePerMinute: 10_000, monthlyQuota: null });
      assert.deepEqual(await statuses([a, b, a, b], old), [200, 200, 200, 200]);
      const start = clock.ms;
      const rolled = await rollKey(a.deps.admin, keyId, '1h', 'ops@example.com', org);
      assert.deepEqual(await statuses([b, a], rolled.key), [200, 200], 'the successor works at once everywhere');
      clock.set(iso(start + 3_600_000 - 1));
      assert.deepEqual(await statuses([b, a], old), [200, 200]);
      clock.set(iso(start + 3_600_000));
      assert.deepEqual(await statuses([b, a], old), [401, 401]);
      assert.deepEqual(await statuses([b, a], rolled.key), [200, 200]);
    });

    test('expiry: refused by both instances from its millisecond on', async () => {
      const { org } = await cluster.customer('expiring', { ratePerMinute: 10_000, monthlyQuota: null });
      const ends = clock.ms + 90 * 86_400_000;
      const { key } = await createExpiringKey(b.deps.admin, org, { mode: 'live', name: 'quarterly', expiresAt: iso(ends) }, 'test');
      assert.deepEqual(await statuses([a, b, a, b], key), [200, 200, 200, 200]);
      clock.set(iso(ends - 1));
      assert.deepEqual(await statuses([a, b], key), [200, 200]);
      clock.set(iso(ends));
      assert.deepEqual(await statuses([a, b], key), [401, 401]);
    });

    test('one request log for every instance; an exposure on one revokes the key on both when the organisation asks', async () => {
      const { org, key } = await cluster.customer('shared', { ratePerMinute: 10_000, monthlyQuota: null });
      const ids = [];
      for (const instance of [a, b, a]) ids.push((await instance.get('/v1/codes?limit=1', key)).headers.get('request-id'));
      await a.deps.requestLog.flush();
      await b.deps.requestLog.flush();
      const page = await pageRequestLog(b.deps.admin, org, {});
      assert.deepEqual(page.entries.map((e) => e.requestId).sort(), [...ids].sort());

      await updateOrgSettings(a.deps.admin, org, { autoRevokeExposed: true, requestLogDays: 7, requestLogMax: 10_000 }, 'test');
      assert.deepEqual(await statuses([a, b], key), [200, 200]);
      assert.equal((await b.get(`/v1/codes?api_key=${key}`)).status, 400);
      assert.deepEqual(await statuses([a, b], key), [401, 401]);
    });
  });
}
