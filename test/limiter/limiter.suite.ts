/**
 * The one suite every Limiter passes (memory and Redis), through the Limiter
 * interface only. Times are passed in, so windows are crossed without waiting;
 * every test counts for organisations of its own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Plan } from '../../src/domain/access.ts';
import type { Limiter } from '../../src/limiter/limiter.ts';

export interface LimiterBackend {
  /** A limiter over the backend's state. Called again: another instance over the same state (a restart, another process). */
  create(): Promise<Limiter>;
  /** Whether two instances alive at once share counts exactly (Redis); the embedded limiter is one per process. */
  shared: boolean;
  /** Closes every limiter it created and removes the state. */
  cleanup(): Promise<void>;
}

const T0 = Date.parse('2026-03-15T12:00:30Z');
const plan = (ratePerMinute: number, monthlyQuota: number | null): Plan => ({
  name: 'suite',
  endpoints: ['codes.list'],
  ratePerMinute,
  monthlyQuota,
  testKeysAllowed: true,
});
const newOrg = () => `org_${randomBytes(6).toString('hex')}`;

async function consumeMany(limiter: Limiter, orgId: string, p: Plan, n: number, at = T0): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await limiter.consume(orgId, p, at)).refusedBy ?? 'ok');
  return out;
}

/** Call inside a describe(): its tests share one backend, opened before and cleaned up after them. */
export function limiterSuite(open: () => Promise<LimiterBackend>): void {
  let backend: LimiterBackend | undefined;
  let limiter: Limiter;
  before(async () => {
    backend = await open();
    limiter = await backend.create();
  });
  after(async () => {
    await backend?.cleanup();
  });

  test('the minute rate admits exactly its number per UTC minute; the next minute starts afresh', async () => {
    const org = newOrg();
    const p = plan(3, null);
    assert.deepEqual(await consumeMany(limiter, org, p, 5), ['ok', 'ok', 'ok', 'minute', 'minute']);
    const refused = await limiter.consume(org, p, T0);
    assert.equal(refused.allowed, false);
    assert.deepEqual(refused.minute, { limit: 3, remaining: 0, resetSeconds: 30 });
    assert.equal(refused.month.remaining, null, 'unlimited month');
    assert.deepEqual(await consumeMany(limiter, org, p, 4, T0 + 30_000), ['ok', 'ok', 'ok', 'minute'], 'at 12:01:00 a new minute');
  });

  test('the monthly allowance admits exactly its number per UTC month, checked before the minute', async () => {
    const org = newOrg();
    const p = plan(2, 3);
    assert.deepEqual(await consumeMany(limiter, org, p, 3), ['ok', 'ok', 'minute']);
    assert.deepEqual(await consumeMany(limiter, org, p, 2, T0 + 60_000), ['ok', 'month'], 'the month runs out in the next minute');
    const refused = await limiter.consume(org, p, T0 + 60_000);
    assert.equal(refused.refusedBy, 'month', 'month first, though the minute is also used up');
    assert.deepEqual(refused.month, { limit: 3, remaining: 0, resetSeconds: Math.ceil((Date.parse('2026-04-01T00:00:00Z') - T0 - 60_000) / 1000) });
    assert.equal(refused.monthResetsAt.toISOString(), '2026-04-01T00:00:00.000Z');
    assert.deepEqual(await consumeMany(limiter, org, p, 1, Date.parse('2026-04-01T00:00:00Z')), ['ok'], 'a new month starts afresh');
  });

  test('a request refused by one limit consumes nothing from the other', async () => {
    const org = newOrg();
    const p = plan(2, 5);
    await consumeMany(limiter, org, p, 10); // 2 admitted, 8 refused by the minute
    const month = await limiter.peek(org, p, T0);
    assert.equal(month.month.remaining, 3, 'refusals by the minute did not use the month');
    assert.deepEqual(await consumeMany(limiter, org, p, 4, T0 + 60_000), ['ok', 'ok', 'minute', 'minute']);
    assert.deepEqual(await consumeMany(limiter, org, p, 3, T0 + 120_000), ['ok', 'month', 'month']);
    const next = await limiter.peek(org, p, T0 + 120_000);
    assert.equal(next.minute.remaining, 1, 'refusals by the month did not use the minute');
  });

  test('peek tells the state without counting', async () => {
    const org = newOrg();
    const p = plan(5, 10);
    await consumeMany(limiter, org, p, 2);
    for (let i = 0; i < 3; i++) {
      const d = await limiter.peek(org, p, T0);
      assert.equal(d.allowed, true);
      assert.equal(d.minute.remaining, 3);
      assert.equal(d.month.remaining, 8);
    }
  });

  test('organisations are counted apart', async () => {
    const [a, b] = [newOrg(), newOrg()];
    const p = plan(1, null);
    assert.deepEqual(await consumeMany(limiter, a, p, 2), ['ok', 'minute']);
    assert.deepEqual(await consumeMany(limiter, b, p, 2), ['ok', 'minute']);
  });

  test('exact under concurrency: 5×N requests at once, exactly N admitted (across instances where shared)', async () => {
    const org = newOrg();
    const n = 20;
    const instances = backend!.shared ? [limiter, await backend!.create()] : [limiter];
    const p = plan(1_000, n);
    const decisions = await Promise.all(Array.from({ length: 5 * n }, (_, i) => instances[i % instances.length]!.consume(org, p, T0)));
    assert.equal(decisions.filter((d) => d.allowed).length, n);
    assert.ok(decisions.filter((d) => !d.allowed).every((d) => d.refusedBy === 'month'));
    assert.equal((await instances.at(-1)!.peek(org, p, T0)).month.remaining, 0);
  });

  test('a request given back returns to the month, not to the minute, and survives a restart', async () => {
    const org = newOrg();
    const p = plan(10, 3);
    assert.deepEqual(await consumeMany(limiter, org, p, 4), ['ok', 'ok', 'ok', 'month']);
    await limiter.giveBack(org, T0);
    const after = await limiter.peek(org, p, T0);
    assert.deepEqual([after.month.remaining, after.minute.remaining], [1, 7], 'one more this month; the minute keeps it');
    assert.deepEqual(await consumeMany(limiter, org, p, 2), ['ok', 'month']);
    await limiter.giveBack(org, T0);
    await limiter.close();
    limiter = await backend!.create();
    assert.equal((await limiter.peek(org, p, T0)).month.remaining, 1, 'the given-back request is still given back after a restart');
  });

  test('giving back never takes the month below zero, also when many arrive at once (across instances where shared)', async () => {
    const org = newOrg();
    const p = plan(100, 10);
    await consumeMany(limiter, org, p, 3);
    const instances = backend!.shared ? [limiter, await backend!.create()] : [limiter];
    await Promise.all(Array.from({ length: 20 }, (_, i) => instances[i % instances.length]!.giveBack(org, T0)));
    assert.equal((await limiter.peek(org, p, T0)).month.remaining, 10, 'three given back, not twenty');
    assert.deepEqual(await consumeMany(limiter, org, p, 11, T0 + 60_000), [...Array(10).fill('ok'), 'month'], 'exactly the allowance, no more');
    await limiter.giveBack(newOrg(), T0);
  });

  test('a request counted in a month that has ended is not given back to the new one', async () => {
    const org = newOrg();
    const p = plan(100, 2);
    await consumeMany(limiter, org, p, 1, Date.parse('2026-03-31T23:59:59Z'));
    const april = Date.parse('2026-04-01T00:00:01Z');
    await consumeMany(limiter, org, p, 2, april);
    await limiter.giveBack(org, Date.parse('2026-03-31T23:59:59Z'));
    assert.equal((await limiter.peek(org, p, april)).month.remaining, 0, "April's count is April's");
  });

  test('counts survive a restart of the limiter', async () => {
    const org = newOrg();
    const p = plan(100, 10);
    const first = await backend!.create();
    await consumeMany(first, org, p, 4);
    await first.close();
    const second = await backend!.create();
    assert.equal((await second.peek(org, p, T0)).month.remaining, 6);
    assert.equal((await second.peek(org, p, T0)).minute.remaining, 96);
  });
}
