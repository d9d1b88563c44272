/**
 * Outages, without touching the shared servers. Redis: instances on a private
 * redis-server that the test kills and starts again. PostgreSQL: an instance
 * that reaches it through a TCP proxy the test cuts and restores. Requests
 * are answered throughout, honestly, and the instances recover by themselves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { revokeKey } from '../../src/services/access/admin.ts';
import { createCluster, eventually, metric, type Cluster } from '../helpers/cluster.ts';
import { PrivateRedis, skipUnlessRedisServer } from '../helpers/redis.ts';
import { skipUnlessBoth } from '../helpers/services.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const skip = (await skipUnlessBoth()) || (await skipUnlessRedisServer());

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

/** The pages these tests warm would be served from the read cache while the database is down; they need the database. */
const NO_READ_CACHE = { READ_CACHE_MB: '0' };

describe('outages', { skip }, () => {
  let cluster: Cluster;
  const redis = new PrivateRedis();
  let proxy: TcpProxy | undefined;

  before(async () => {
    process.on('unhandledRejection', onRejection);
    cluster = await createCluster('outages');
    await redis.start();
    const database = new URL(cluster.db.url);
    proxy = new TcpProxy(database.hostname, Number(database.port || 5432));
    await proxy.start();
  });
  after(async () => {
    process.off('unhandledRejection', onRejection);
    await proxy?.restore();
    try {
      await cluster?.close();
    } finally {
      await proxy?.close();
      await redis.stop();
    }
  });

  test('Redis down: requests are still served (per-instance limits), warned and counted, never 401/403/429; back by itself', async () => {
    const a = await cluster.instance({ redisUrl: redis.url });
    const b = await cluster.instance({ redisUrl: redis.url });
    const { key } = await cluster.customer('redisdown', { ratePerMinute: 10_000, monthlyQuota: 1_000 });
    const { key: other, keyId: otherId } = await cluster.customer('revokedduring', { ratePerMinute: 10_000, monthlyQuota: null });
    for (const i of [a, b, a, b]) assert.equal((await i.get('/v1/codes?limit=1', key)).status, 200);
    assert.equal((await a.get('/v1/codes?limit=1', other)).status, 200);
    // Counts are copied to PostgreSQL every second; the last second's may be lost with Redis (README, "Scale out").
    // Past it, every request of the month must be counted, so the check below can be exact.
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    await redis.stop();
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push((await [a, b][i % 2]!.get('/v1/codes?limit=1', key)).status);
    assert.deepEqual(during, Array(10).fill(200), 'served throughout');
    for (const instance of [a, b]) {
      assert.ok((await metric(instance, /^codebook_limiter_decisions_total\{backend="fallback",decision="allowed"\}/)) >= 5, 'fallback decisions are counted');
      assert.ok((await metric(instance, /^codebook_store_errors_total\{store="redis"\}/)) >= 1, 'Redis errors are counted');
      assert.equal(await metric(instance, /^codebook_redis_fallback_active /), 1);
      assert.ok(
        instance.warnings.some((w) => /Redis is unreachable/.test(w)),
        'and a warning is logged',
      );
      const ready = await instance.get('/readyz');
      assert.equal(ready.status, 200, 'still ready: it serves');
      assert.deepEqual(await ready.json(), { status: 'degraded', checks: { database: 'ok', redis: 'unreachable' } });
    }
    await revokeKey(a.deps.admin, otherId);
    assert.equal((await b.get('/v1/codes?limit=1', other)).status, 401, 'revocation holds while Redis is down');

    await redis.start();
    for (const instance of [a, b]) {
      const active = await eventually(
        () => metric(instance, /^codebook_redis_fallback_active /),
        (v) => v === 0,
      );
      assert.equal(active, 0, 'the instance went back to Redis by itself');
    }
    const res = await a.get('/v1/codes?limit=1', key);
    assert.equal(res.status, 200);
    const remaining = Number(/"month";r=(\d+)/.exec(res.headers.get('ratelimit')!)![1]);
    assert.equal(remaining, 1_000 - 15, 'every request of the month counts toward it: the 4 before the outage, the 10 served during it, this one');
    assert.ok((await metric(a, /^codebook_limiter_decisions_total\{backend="redis",decision="allowed"\}/)) >= 1);
  });

  test('PostgreSQL down: 503 service_unavailable with Retry-After (never 401), /readyz 503, back by itself', async () => {
    const instance = await cluster.instance({ databaseUrl: cluster.db.urlVia(proxy!.port), env: NO_READ_CACHE });
    const { key } = await cluster.customer('pgdown', { ratePerMinute: 10_000, monthlyQuota: null });
    const { key: uncached } = await cluster.customer('pgdown-cold', { ratePerMinute: 10_000, monthlyQuota: null });
    assert.equal((await instance.get('/v1/codes?limit=1', key)).status, 200);

    await proxy!.cut();
    for (const k of [key, uncached]) {
      for (const path of ['/v1/codes?limit=1', '/v1/codes/sys:X', '/v1/changes']) {
        const res = await instance.get(path, k);
        assert.equal(res.status, 503, `${path} with a ${k === key ? 'cached' : 'new'} key`);
        assert.equal(res.headers.get('retry-after'), '5');
        const body = (await res.json()) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'service_unavailable');
        assert.doesNotMatch(body.error.message, /ECONN|postgres|pg_/i, 'no internals in the body');
      }
    }
    // The dashboard too: a page that needs the database says so, as HTML, with Retry-After.
    const signIn = await fetch(`${instance.url}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'cb_session=not-a-real-session' },
      body: 'email=a%40example.com&password=x',
    });
    assert.equal(signIn.status, 503);
    assert.equal(signIn.headers.get('retry-after'), '5');
    assert.match(signIn.headers.get('content-type') ?? '', /^text\/html/);
    const ready = await instance.get('/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('retry-after'), '5');
    assert.equal((await instance.get('/healthz')).status, 200, 'alive, only not ready');
    assert.ok((await metric(instance, /^codebook_store_errors_total\{store="database"\}/)) >= 6);
    assert.ok((await metric(instance, /^codebook_http_requests_total\{route="\/v1\/codes",status="503",outcome="unavailable"\}/)) >= 2);

    await proxy!.restore();
    const back = await eventually(
      async () => (await instance.get('/v1/codes?limit=1', uncached)).status,
      (s) => s === 200,
    );
    assert.equal(back, 200, 'serves again once the database is back, without a restart');
    assert.equal((await instance.get('/readyz')).status, 200);
  });

  test('an instance stopped while PostgreSQL is down stops cleanly, reporting the counts it could not write', async () => {
    const instance = await cluster.instance({ databaseUrl: cluster.db.urlVia(proxy!.port), env: NO_READ_CACHE });
    const { key } = await cluster.customer('pgdown-stop', { ratePerMinute: 10_000, monthlyQuota: null });
    assert.equal((await instance.get('/v1/codes?limit=1', key)).status, 200);
    await proxy!.cut();
    try {
      await instance.stop();
    } finally {
      await proxy!.restore();
    }
    assert.deepEqual(rejections, [], 'no unhandled rejection during any outage');
  });
});
