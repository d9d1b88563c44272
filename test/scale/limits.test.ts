/**
 * Limits are exact across instances: requests spread over two instances at
 * once are admitted exactly as a single instance would admit them, and a
 * request refused by one limit uses nothing of the other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { usageReport } from '../../src/services/access/admin.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { skipUnlessBoth } from '../helpers/services.ts';

const skip = await skipUnlessBoth();

/** A burst must not straddle two UTC minutes; waits (at most 3 s) when one is about to end. */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3_000) await sleep(left + 50);
}

async function burst(instances: Instance[], n: number, path: string, key: string): Promise<{ status: number; code: string | null }[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await instances[i % instances.length]!.get(path, key);
      const body = (await res.json()) as { error?: { code: string } };
      return { status: res.status, code: body.error?.code ?? null };
    }),
  );
}

function tally(results: { status: number; code: string | null }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) out[r.code ?? String(r.status)] = (out[r.code ?? String(r.status)] ?? 0) + 1;
  return out;
}

/** The RateLimit field of an authenticated request refused before the limits (404): the state, uncounted. */
async function state(instance: Instance, key: string): Promise<string> {
  const res = await instance.get('/v1/nowhere', key);
  assert.equal(res.status, 404);
  return res.headers.get('ratelimit')!;
}

describe('limits across instances', { skip }, () => {
  let cluster: Cluster;
  let instances: Instance[];

  before(async () => {
    cluster = await createCluster('limits');
    instances = [await cluster.instance(), await cluster.instance()];
  });
  after(async () => {
    await cluster?.close();
  });

  test('monthly allowance N, 5×N concurrent requests over both instances: exactly N succeed', async () => {
    const n = 40;
    const { key } = await cluster.customer('monthly', { ratePerMinute: 1_000_000, monthlyQuota: n });
    await awayFromMinuteEnd();
    const results = await burst(instances, 5 * n, '/v1/codes?limit=1', key);
    assert.deepEqual(tally(results), { '200': n, monthly_quota_exceeded: 4 * n });
    for (const instance of instances) assert.match(await state(instance, key), /"month";r=0;/, 'both instances see the allowance used up');
  });

  test('minute rate R, 5×R concurrent requests over both instances: exactly R succeed', async () => {
    const r = 30;
    const { key } = await cluster.customer('minutely', { ratePerMinute: r, monthlyQuota: null });
    await awayFromMinuteEnd();
    const results = await burst(instances, 5 * r, '/v1/codes?limit=1', key);
    assert.deepEqual(tally(results), { '200': r, rate_limit_exceeded: 4 * r });
  });

  test('requests refused by the minute rate use nothing of the monthly allowance, on either instance', async () => {
    const { key } = await cluster.customer('both', { ratePerMinute: 6, monthlyQuota: 100 });
    await awayFromMinuteEnd();
    const results = await burst(instances, 30, '/v1/codes?limit=1', key);
    assert.deepEqual(tally(results), { '200': 6, rate_limit_exceeded: 24 });
    for (const instance of instances) assert.match(await state(instance, key), /"minute";r=0;t=\d+, "month";r=94;/);
  });

  test('the counts reach PostgreSQL by themselves, where the usage report reads them', async () => {
    const { org, key } = await cluster.customer('durable', { ratePerMinute: 1_000, monthlyQuota: 1_000 });
    await burst(instances, 12, '/v1/codes?limit=1', key);
    const month = new Date().toISOString().slice(0, 7);
    const deadline = Date.now() + 5_000;
    let counted = 0;
    while (counted < 12 && Date.now() < deadline) {
      counted = (await usageReport(instances[1]!.deps.admin, org, month)).counted;
      await sleep(50);
    }
    assert.equal(counted, 12, 'the month count in PostgreSQL, as `codebook usage` and the dashboard show it');
  });
});
