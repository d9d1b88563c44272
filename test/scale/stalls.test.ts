/**
 * Stalls, not outages: PostgreSQL or Redis keeps its connections open and
 * stops answering (a frozen process, a saturated host), simulated by a TCP
 * proxy in front of the shared server that the test freezes and thaws.
 * PostgreSQL stalled: requests get 503 with Retry-After within the timeouts
 * instead of hanging, /readyz says 503, and the instance serves again by
 * itself. Redis stalled: requests are still served (degraded, per-instance
 * limits), never refused, and the shared limiter takes over again by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCluster, eventually as eventuallyAt, metric, type Cluster, type Instance } from '../helpers/cluster.ts';
import { REDIS_URL, skipUnlessBoth } from '../helpers/services.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const skip = await skipUnlessBoth();

/** The timeouts the stalled instance runs with: small, so that the test is short. */
const CONNECT_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 1_000;
/** A request that takes longer than both timeouts and this margin is taken as hanging. */
const HANG_MS = CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 3_000;

const eventually = <T>(fn: () => Promise<T>, ok: (value: T) => boolean) => eventuallyAt(fn, ok, 15_000, 100);

/** A request that either answers or is given up after HANG_MS (then its status is 'hung'). */
async function timed(
  instance: Instance,
  path: string,
  key: string,
): Promise<{ status: number | 'hung'; ms: number; retryAfter: string | null; code?: string }> {
  const started = Date.now();
  try {
    const res = await fetch(`${instance.url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(HANG_MS) });
    const body = (await res.json()) as { error?: { code: string } };
    return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), code: body.error?.code };
  } catch {
    return { status: 'hung', ms: Date.now() - started, retryAfter: null };
  }
}

describe('stalls', { skip }, () => {
  let cluster: Cluster;
  const proxies: TcpProxy[] = [];
  const proxyTo = async (url: string, defaultPort: number) => {
    const target = new URL(url);
    const proxy = new TcpProxy(target.hostname, Number(target.port || defaultPort));
    proxies.push(proxy);
    await proxy.start();
    return proxy;
  };

  before(async () => {
    cluster = await createCluster('stalls');
    // The first instance, which sets customers up, reaches both directly.
    await cluster.instance();
  });
  after(async () => {
    for (const proxy of proxies) proxy.resume();
    try {
      await cluster?.close();
    } finally {
      for (const proxy of proxies) await proxy.close();
    }
  });

  test('PostgreSQL stalled: requests in flight get 503 with Retry-After within the timeouts, /readyz 503; served again once it answers', async () => {
    const proxy = await proxyTo(cluster.db.url, 5432);
    const instance = await cluster.instance({
      databaseUrl: cluster.db.urlVia(proxy.port),
      env: { DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS), DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
    });
    const { key } = await cluster.customer('pgstall', { ratePerMinute: 10_000, monthlyQuota: null });
    const { key: uncached } = await cluster.customer('pgstall-cold', { ratePerMinute: 10_000, monthlyQuota: null });
    for (let i = 0; i < 3; i++) assert.equal((await instance.get('/v1/codes?limit=1', key)).status, 200);

    proxy.stall();
    const inFlight = await Promise.all([
      timed(instance, '/v1/codes?limit=1', key),
      timed(instance, '/v1/codes/sys:X', key),
      timed(instance, '/v1/changes', key),
      timed(instance, '/v1/codes?limit=1', uncached),
      timed(instance, '/v1/codes?limit=1', key),
    ]);
    for (const r of inFlight) {
      assert.deepEqual([r.status, r.code, r.retryAfter], [503, 'service_unavailable', '5'], `answered after ${r.ms} ms`);
    }
    const ready = await instance.get('/readyz');
    assert.equal(ready.status, 503, '/readyz takes the instance out of rotation');
    assert.equal(ready.headers.get('retry-after'), '5');

    proxy.resume();
    const back = await eventually(
      () => timed(instance, '/v1/codes?limit=1', uncached),
      (r) => r.status === 200,
    );
    assert.equal(back.status, 200, 'serves again once the database answers, without a restart');
    assert.equal((await instance.get('/readyz')).status, 200);
    for (let i = 0; i < 5; i++) assert.equal((await instance.get('/v1/codes/sys:X', key)).status, 404, 'and keeps answering (a code that does not exist)');
  });

  test('Redis stalled: requests are served throughout (degraded, never 401/403/429/503); the shared limiter takes over again once it answers', async () => {
    const proxy = await proxyTo(REDIS_URL, 6379);
    const a = await cluster.instance({ redisUrl: `redis://127.0.0.1:${proxy.port}` });
    const b = await cluster.instance();
    const { key } = await cluster.customer('redisstall', { ratePerMinute: 10_000, monthlyQuota: 1_000 });
    for (const i of [a, b, a]) assert.equal((await i.get('/v1/codes?limit=1', key)).status, 200);

    proxy.stall();
    const during: number[] = [];
    for (let i = 0; i < 6; i++) during.push((await a.get('/v1/codes?limit=1', key)).status);
    assert.deepEqual(during, Array(6).fill(200), 'served throughout, with per-instance limits');
    assert.equal(await metric(a, /^codebook_redis_fallback_active /), 1);
    assert.ok((await metric(a, /^codebook_limiter_decisions_total\{backend="fallback",decision="allowed"\}/)) >= 5, 'decided by the fallback');
    const ready = await a.get('/readyz');
    assert.equal(ready.status, 200, 'still ready: it serves');
    assert.deepEqual(await ready.json(), { status: 'degraded', checks: { database: 'ok', redis: 'unreachable' } });
    assert.ok(
      a.warnings.some((w) => /Redis is unreachable/.test(w)),
      'an operator is told',
    );

    proxy.resume();
    assert.equal(
      await eventually(
        () => metric(a, /^codebook_redis_fallback_active /),
        (v) => v === 0,
      ),
      0,
      'back on Redis by itself',
    );
    const res = await a.get('/v1/codes?limit=1', key);
    assert.equal(res.status, 200);
    const remaining = Number(/"month";r=(\d+)/.exec(res.headers.get('ratelimit')!)![1]);
    assert.ok(remaining <= 1_000 - 10, `what the fallback admitted is in the shared month again (remaining ${remaining})`);
    assert.ok((await metric(a, /^codebook_limiter_decisions_total\{backend="redis",decision="allowed"\}/)) >= 3);
    assert.equal((await b.get('/v1/codes?limit=1', key)).status, 200);
  });
});
