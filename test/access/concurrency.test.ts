/**
 * Exact admission under concurrency: with an allowance of N and 5×N requests
 * in flight at once, exactly N are admitted, through inject() and through a
 * real listening server with real sockets; and the stored count says N.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { usageReport } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bare, orgOnPlan } from './helpers.ts';

const N = 40;

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(() => ctx.close());

function tally(results: { status: number; code: string | null }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = r.code ? `${r.status} ${r.code}` : String(r.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

async function counted(slug: string): Promise<number> {
  await ctx.deps.limiter.flush();
  const org = (await ctx.store.access.getOrg(slug))!;
  return (await usageReport(ctx.deps.admin, org, '2026-03')).counted;
}

test(`monthly allowance ${N}, ${5 * N} concurrent requests through inject(): exactly ${N} get 200`, async () => {
  const o = await orgOnPlan(ctx, 'burst-month', { name: 'burst-month', monthlyQuota: N, ratePerMinute: 1_000_000 });
  // The organisation's first requests: its counts are loaded while they arrive.
  const results = await Promise.all(
    Array.from({ length: 5 * N }, async (_, i) => {
      const res = await bare(ctx, i % 2 ? '/v1/codes' : '/v1/codes/demo:A', o.headers);
      return { status: res.statusCode, code: res.statusCode === 200 ? null : (res.json().error.code as string) };
    }),
  );
  assert.deepEqual(tally(results), { 200: N, '429 monthly_quota_exceeded': 4 * N });
  assert.equal(await counted('burst-month'), N);
});

test(`minute rate ${N}, ${5 * N} concurrent requests through inject(): exactly ${N} get 200`, async () => {
  const o = await orgOnPlan(ctx, 'burst-minute', { name: 'burst-minute', monthlyQuota: null, ratePerMinute: N });
  const results = await Promise.all(
    Array.from({ length: 5 * N }, async () => {
      const res = await bare(ctx, '/v1/codes', o.headers);
      return { status: res.statusCode, code: res.statusCode === 200 ? null : (res.json().error.code as string) };
    }),
  );
  assert.deepEqual(tally(results), { 200: N, '429 rate_limit_exceeded': 4 * N });
});

test(`monthly allowance ${N}, ${5 * N} concurrent requests over real sockets: exactly ${N} get 200`, async () => {
  const o = await orgOnPlan(ctx, 'burst-socket', { name: 'burst-socket', monthlyQuota: N, ratePerMinute: 1_000_000 });
  // Closed with the app in after().
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const results = await Promise.all(
    Array.from({ length: 5 * N }, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/codes?limit=1`, { headers: o.headers, signal: AbortSignal.timeout(30_000) });
      const body = (await res.json()) as { error?: { code: string } };
      return { status: res.status, code: body.error?.code ?? null };
    }),
  );
  assert.deepEqual(tally(results), { 200: N, '429 monthly_quota_exceeded': 4 * N });
  assert.equal(await counted('burst-socket'), N);
});
