/**
 * Revocation across instances: a key revoked through one instance, or through
 * the CLI in another process, is refused by the very next request to every
 * instance, though each had it cached; plan changes and new keys likewise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey, revokeKey, setPlan } from '../../src/services/access/admin.ts';
import { runCodebook } from '../helpers/cli.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { REDIS_URL, skipUnlessBoth } from '../helpers/services.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const skip = await skipUnlessBoth();

/** Runs the CLI in a process of its own, at most 30 s; returns its exit code and output. */
const cli = (args: string[], settings: Record<string, string>) => runCodebook(args, { settings });

/** Each instance answers the key; twice, so that it is cached where caching applies. */
async function warm(instances: Instance[], key: string): Promise<void> {
  for (const instance of instances) {
    for (let i = 0; i < 2; i++) assert.equal((await instance.get('/v1/codes?limit=1', key)).status, 200);
  }
}

async function statuses(instances: Instance[], key: string, path = '/v1/codes?limit=1'): Promise<number[]> {
  return Promise.all(instances.map(async (instance) => (await instance.get(path, key)).status));
}

describe('revocation and access changes across instances', { skip }, () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;

  before(async () => {
    cluster = await createCluster('revocation');
    a = await cluster.instance();
    b = await cluster.instance();
  });
  after(async () => {
    await cluster?.close();
  });

  test('revoked through one instance (the dashboard path): the next request to the other gets 401', async () => {
    const { key, keyId } = await cluster.customer('dash', { ratePerMinute: 1_000, monthlyQuota: null });
    await warm([a, b], key);
    await revokeKey(a.deps.admin, keyId);
    const res = await b.get('/v1/codes?limit=1', key);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
    assert.deepEqual(await statuses([a, b], key), [401, 401]);
    assert.deepEqual(await statuses([a, b], key, '/v1/nowhere'), [401, 401], 'on every path: the key is checked first');
  });

  test('revoked by the CLI in another process: the next request to each instance gets 401', async () => {
    const { key, keyId } = await cluster.customer('cli', { ratePerMinute: 1_000, monthlyQuota: null });
    await warm([a, b], key);
    const run = await cli(['keys', 'revoke', keyId], cluster.env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /revoked/);
    assert.deepEqual(await statuses([b, a], key), [401, 401]);
  });

  test('revoked by a CLI that has no Redis: every instance refuses it within seconds (read from PostgreSQL)', async () => {
    const { key, keyId } = await cluster.customer('noredis', { ratePerMinute: 1_000, monthlyQuota: null });
    await warm([a, b], key);
    const run = await cli(['keys', 'revoke', keyId], { ...cluster.env, REDIS_URL: '' });
    assert.equal(run.code, 0, run.stderr);
    const deadline = Date.now() + 5_000;
    let seen = await statuses([a, b], key);
    while (seen.some((s) => s !== 401) && Date.now() < deadline) {
      await sleep(50);
      seen = await statuses([a, b], key);
    }
    assert.deepEqual(seen, [401, 401]);
  });

  test('a plan change through one instance holds for the next request to the other', async () => {
    const { key, org } = await cluster.customer('planned', { ratePerMinute: 1_000, monthlyQuota: null });
    await warm([a, b], key);
    await setPlan(a.deps.admin, { name: `plan-${org.slug}`, endpoints: ['codes.get'], ratePerMinute: 1_000, monthlyQuota: null, testKeysAllowed: true });
    const res = await b.get('/v1/codes?limit=1', key);
    assert.equal(res.status, 403);
    await setPlan(a.deps.admin, { name: `plan-${org.slug}`, endpoints: ['codes.list'], ratePerMinute: 1_000, monthlyQuota: null, testKeysAllowed: true });
    assert.deepEqual(await statuses([b, a], key), [200, 200], 'and back: a cached 403 is not kept either');
  });

  test('a key created through one instance works at once on the other', async () => {
    const { org, key: first } = await cluster.customer('newkey', { ratePerMinute: 1_000, monthlyQuota: null });
    await warm([a, b], first);
    const { key } = await createKey(a.deps.admin, org, 'live', 'second');
    assert.deepEqual(await statuses([b, a], key), [200, 200]);
  });

  test('revoked through an instance that cannot reach Redis: it returns once the others will refuse the key', async () => {
    // c reaches the shared Redis through a proxy the test cuts; a and b reach it directly.
    const where = new URL(REDIS_URL);
    const proxy = new TcpProxy(where.hostname, Number(where.port || 6379));
    await proxy.start();
    const via = new URL(REDIS_URL);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    const c = await cluster.instance({ redisUrl: via.toString() });
    try {
      const { key, keyId } = await cluster.customer('cut-off', { ratePerMinute: 1_000, monthlyQuota: null });
      await warm([a, b, c], key);
      await proxy.cut();
      // c finds Redis gone on its next use of it.
      for (let i = 0; i < 3; i++) await c.get('/v1/codes?limit=1', key);
      await revokeKey(c.deps.admin, keyId);
      assert.deepEqual(await statuses([a, b, c], key), [401, 401, 401], 'refused by the next request to every instance');
      assert.ok(
        c.warnings.some((w) => /Redis could not be told of this change: waiting 1500 ms/.test(w)),
        c.warnings.join('\n'),
      );
    } finally {
      await proxy.restore();
      await c.stop();
      await proxy.close();
    }
  });
});
