/**
 * The limiter suite on RedisLimiter against the real Redis (a key prefix of
 * this run's own, deleted afterwards), plus what only it has: key expiry,
 * the mirror to the usage store and reconciliation from it, the access epoch,
 * and the per-instance fallback while Redis is down (on a private
 * redis-server this test starts and kills).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Plan } from '../../src/domain/access.ts';
import { RedisLimiter, type RedisLimiterOptions } from '../../src/limiter/redis-limiter.ts';
import { defineScripts, type ScriptCommands } from '../../src/limiter/redis-scripts.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { deleteUnder, keysUnder, PrivateRedis, redisClient, runPrefix, skipUnlessRedisServer } from '../helpers/redis.ts';
import { REDIS_URL, skipUnlessRedis } from '../helpers/services.ts';
import { limiterSuite } from './limiter.suite.ts';

const skip = await skipUnlessRedis();
const PLAN: Plan = { name: 'r', endpoints: ['codes.list'], ratePerMinute: 100, monthlyQuota: 50, testKeysAllowed: true };
const NOW = Date.now();

/** Waits for a condition, polling, at most timeoutMs; fails with what it waited for. */
async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(20);
  }
}

interface Harness {
  store: SqliteStore;
  limiter(overrides?: Partial<RedisLimiterOptions>): Promise<RedisLimiter>;
  warnings: string[];
  close(): Promise<void>;
}

function harness(url: string, prefix: string): Harness {
  const dir = tempDir();
  const store = new SqliteStore({ path: join(dir, 'codebook.db') });
  const limiters: RedisLimiter[] = [];
  const warnings: string[] = [];
  return {
    store,
    warnings,
    async limiter(overrides = {}) {
      const limiter = new RedisLimiter({ url, prefix, usage: store.usage, settings: store, tickMs: 100, onWarning: (m) => warnings.push(m), ...overrides });
      limiters.push(limiter);
      await limiter.start();
      return limiter;
    },
    async close() {
      for (const l of limiters) await l.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('Limiter (redis)', { skip }, () => {
  const prefix = runPrefix('limiter');
  let h: Harness;
  before(() => {
    h = harness(REDIS_URL, prefix);
  });
  after(async () => {
    await h.close();
    const client = redisClient();
    await deleteUnder(client, prefix);
    client.disconnect();
  });

  limiterSuite(async () => {
    const suitePrefix = `${prefix}suite:`;
    const suite = harness(REDIS_URL, suitePrefix);
    return {
      shared: true,
      create: () => suite.limiter(),
      async cleanup() {
        await suite.close();
      },
    };
  });

  test('every key the limiter writes carries an expiry', async () => {
    const limiter = await h.limiter();
    await limiter.consume('org_ttl', PLAN, NOW);
    await limiter.consume('org_ttl', { ...PLAN, monthlyQuota: null }, NOW + 60_000);
    await limiter.giveBack('org_ttl', NOW);
    await limiter.accessChanged();
    const client = redisClient();
    try {
      const keys = await keysUnder(client, prefix);
      assert.ok(keys.length >= 5, `keys written: ${keys.join(', ')}`);
      assert.ok(
        keys.some((k) => k.includes(':given-back:')),
        'the given-back counter among them',
      );
      for (const key of keys) assert.ok((await client.ttl(key)) > 0, `${key} has an expiry`);
    } finally {
      client.disconnect();
    }
  });

  test('counts reach the usage store within a tick; a month Redis lost is reconciled from it', async () => {
    const limiter = await h.limiter();
    for (let i = 0; i < 9; i++) assert.ok((await limiter.consume('org_lost', PLAN, NOW)).allowed);
    for (let i = 0; i < 2; i++) await limiter.giveBack('org_lost', NOW);
    const month = `month:${new Date(NOW).toISOString().slice(0, 7)}`;
    const givenBack = `given-back:${month.slice('month:'.length)}`;
    await until('the store holds the 9 requests, 2 of them given back', async () => {
      const stored = await h.store.usage.loadCounters('org_lost', [month, givenBack]);
      return stored.get(month) === 9 && stored.get(givenBack) === 2;
    });
    const client = redisClient();
    try {
      await client.del(...(await keysUnder(client, `${prefix}c:org_lost:`)));
    } finally {
      client.disconnect();
    }
    const after = await limiter.consume('org_lost', PLAN, NOW);
    assert.equal(after.month.remaining, PLAN.monthlyQuota! - 8, 'the count went on from the store (9 − 2 given back), not from zero');
    assert.equal(after.minute.remaining, PLAN.ratePerMinute - 10, 'the minute too (given back or not)');
  });

  test('counts decided while Redis was down are added once, also when the replay is sent again after its answer was lost', async () => {
    const client = redisClient() as ReturnType<typeof redisClient> & ScriptCommands;
    defineScripts(client);
    try {
      const keys = [`${prefix}c:org_replay:month:2026-03`, `${prefix}c:org_replay:given-back:2026-03`, `${prefix}replayed:r1`];
      // 5 admitted and 2 given back on top of the 10 and 0 PostgreSQL holds.
      assert.equal(await client.cbReplay(...keys, 5, 10, 0, 3_600, 2, 60), 15);
      assert.equal(await client.cbReplay(...keys, 5, 10, 0, 3_600, 2, 60), 15, 'sent again: nothing added');
      assert.deepEqual(await client.mget(keys[0]!, keys[1]!), ['15', '2']);
      const other = [keys[0]!, keys[1]!, `${prefix}replayed:r2`];
      assert.equal(await client.cbReplay(...other, 0, '', 0, 3_600, 50, 60), 15, 'another replay gives back at most what the month holds');
      assert.equal(await client.get(keys[1]!), '15');
    } finally {
      client.disconnect();
    }
  });

  test('the access epoch: a change pushed by one instance voids lookups checked by another', async () => {
    const a = await h.limiter();
    const b = await h.limiter();
    assert.ok(Number.isNaN(a.accessVersion()) || a.accessVersion() > 0);
    await a.peek('org_epoch', PLAN, NOW);
    const version = a.accessVersion();
    assert.ok(Number.isFinite(version), 'a version once Redis has answered');
    assert.equal((await a.consume('org_epoch', PLAN, NOW, { version })).stale, undefined, 'an unchanged epoch vouches for the lookup');
    await h.store.ensureSetting('access_version', String(Date.now()));
    assert.equal(await b.accessChanged(), true);
    const refused = await a.consume('org_epoch', PLAN, NOW, { version });
    assert.equal(refused.stale, true, 'a lookup from before the change is void');
    assert.equal((await a.peek('org_epoch', PLAN, NOW)).month.remaining, PLAN.monthlyQuota! - 1, 'and nothing was counted for it');
    assert.notEqual(a.accessVersion(), version);
    assert.equal((await a.consume('org_epoch', PLAN, NOW, { version: a.accessVersion() })).allowed, true, 'a lookup under the new version passes');
  });
});

describe('RedisLimiter while Redis is down', { skip: skip || (await skipUnlessRedisServer()) }, () => {
  const redis = new PrivateRedis();
  let h: Harness;
  before(async () => {
    await redis.start();
    h = harness(redis.url, 'cb:');
  });
  after(async () => {
    await h?.close();
    await redis.stop();
  });

  test('decides per instance, never throws, warns once; adds what it admitted to Redis when it is back', async () => {
    const health: boolean[] = [];
    const limiter = await h.limiter({ onHealth: (ok) => health.push(ok) });
    for (let i = 0; i < 3; i++) assert.equal((await limiter.consume('org_down', PLAN, NOW)).backend, 'redis');
    await limiter.flush();
    const before = await limiter.peek('org_down', PLAN, NOW);
    const version = limiter.accessVersion();

    await redis.stop();
    const during = [];
    for (let i = 0; i < 5; i++) during.push(await limiter.consume('org_down', PLAN, NOW));
    assert.ok(
      during.every((d) => d.allowed && d.backend === 'fallback'),
      'served by the fallback',
    );
    assert.equal(during.at(-1)!.month.remaining, PLAN.monthlyQuota! - 8, 'the fallback starts from the counts the store had');
    await limiter.giveBack('org_down', NOW);
    assert.equal((await limiter.peek('org_down', PLAN, NOW)).month.remaining, PLAN.monthlyQuota! - 7, 'a request given back while Redis is down');
    assert.ok(Number.isNaN(limiter.accessVersion()), 'no cached lookup is vouched for while Redis is down');
    assert.equal((await limiter.consume('org_down', PLAN, NOW, { version })).stale, true, 'a lookup checked before the outage must be made afresh');
    assert.equal(h.warnings.filter((w) => /unreachable/.test(w)).length, 1, 'one warning per outage, not one per request');

    await redis.start(); // empty: its data is gone
    await until('the limiter uses Redis again', () => limiter.isHealthy);
    await until('the fallback counts are in Redis', async () => (await limiter.peek('org_down', PLAN, NOW)).month.remaining === PLAN.monthlyQuota! - 7);
    assert.equal(before.month.remaining, PLAN.monthlyQuota! - 3);
    assert.equal((await limiter.consume('org_down', PLAN, NOW)).backend, 'redis');
    assert.deepEqual(health, [true, false, true], 'connected, lost, back');
    assert.ok(
      h.warnings.some((w) => /reachable again/.test(w)),
      'its end is announced too',
    );
  });
});
