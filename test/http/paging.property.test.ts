/**
 * Paging properties, black-box over HTTP: a walk sees every record that
 * existed when it started exactly once, in order, while imports land between
 * its pages; and a cursor outlives the process that issued it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

interface Envelope<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** The order codes are paged in: UTF-8 bytes, not JS (UTF-16) string order. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

async function getPage<T>(ctx: TestContext, path: string, limit: number, cursor: string | undefined): Promise<Envelope<T>> {
  const query = `limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
  const res = await ctx.get(`${path}?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<Envelope<T>>();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'pagination']);
  assert.deepEqual(Object.keys(body.pagination).sort(), body.pagination.has_more ? ['has_more', 'next_cursor'] : ['has_more']);
  assert.ok(body.data.length <= Math.min(limit, 200), `page of ${body.data.length} for limit ${limit}`);
  if (body.pagination.has_more) assert.ok(body.data.length > 0, 'has_more with an empty page');
  return body;
}

interface WalkPlan<B> {
  /** Limit of page n is limits[n % limits.length]: fixed, or changing between pages. */
  limits: number[];
  /** Each import happens once the walk has seen atPerMille/1000 of the starting records. */
  imports: { atPerMille: number; batch: B }[];
}

/**
 * Walks a collection to its end, running the plan's imports between pages.
 * Asserts the walk is strictly increasing (so nothing repeats), contains every
 * starting record, and nothing the model does not know.
 */
async function walk<T, K, B>(o: {
  ctx: TestContext;
  path: string;
  plan: WalkPlan<B>;
  start: K[];
  keyOf: (record: T) => K;
  compare: (a: K, b: K) => number;
  known: (key: K) => boolean;
  runImport: (batch: B) => Promise<void>;
}): Promise<void> {
  const pending = [...o.plan.imports].sort((a, b) => a.atPerMille - b.atPerMille);
  const seen: K[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    assert.ok(page <= o.start.length + 1000, 'the walk does not end');
    const body = await getPage<T>(o.ctx, o.path, o.plan.limits[page % o.plan.limits.length]!, cursor);
    for (const record of body.data) {
      const key = o.keyOf(record);
      const last = seen.at(-1);
      if (last !== undefined) assert.ok(o.compare(last, key) < 0, `out of order or repeated: ${JSON.stringify(last)} then ${JSON.stringify(key)}`);
      seen.push(key);
    }
    if (!body.pagination.has_more) break;
    cursor = body.pagination.next_cursor;
    while (pending.length > 0 && (pending[0]!.atPerMille * o.start.length) / 1000 <= seen.length) await o.runImport(pending.shift()!.batch);
  }
  // seen is strictly increasing, so a plain merge finds what is missing.
  const missing: K[] = [];
  let i = 0;
  for (const key of o.start) {
    while (i < seen.length && o.compare(seen[i]!, key) < 0) i++;
    if (i >= seen.length || o.compare(seen[i]!, key) !== 0) missing.push(key);
  }
  assert.deepEqual(missing.slice(0, 5), [], `${missing.length} starting record(s) never appeared`);
  assert.deepEqual(seen.filter((key) => !o.known(key)).slice(0, 5), [], 'records nobody imported');
}

const fixedLimit = (values: number[]) => fc.constantFrom(...values).map((limit) => [limit]);
// Up to 260: limits above 200 are clamped, not refused.
const changingLimits = fc.array(fc.integer({ min: 1, max: 260 }), { minLength: 2, maxLength: 12 });

// Letters whose UTF-8 byte order differs from JS string order ('｡' U+FF61 sorts before
// '😀' U+1F600 in bytes, after it in UTF-16), plus the path-hostile characters.
const ALPHABET = ['A', 'a', 'Z', '0', '9', 'é', 'ß', '日', '😀', '｡', '/', '.', '-', ':', ' ', '%', '+'];
const newCode = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(''))
  .filter((code) => code.trim() === code);

let releases = 0;
const nextRelease = () => `walk-${++releases}`;

describe('walking /v1/codes over 10 000 codes', () => {
  let ctx: TestContext;
  /** Every code id ever imported: codes are never deleted. */
  const codeIds = new Set<string>();
  const SYSTEMS = ['a', 'base', 'c']; // new codes land before, among and after the starting ones
  const PREFIXES = ['A', 'a', 'Z-', 'x.y/', 'c:', 'é', '日本', '😀', '｡', 'two words '];

  before(async () => {
    ctx = await createTestContext();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ code: `${PREFIXES[i % PREFIXES.length]}${i.toString(36)}`, display: `Code ${i}` }));
    await ctx.importRows(rows, { system: 'base', release: 'r1', effectiveDate: '2024-01-01' });
    for (const row of rows) codeIds.add(`base:${row.code}`);
  });
  after(() => ctx.close());

  const batch = fc.record({ system: fc.constantFrom(...SYSTEMS), codes: fc.uniqueArray(newCode, { minLength: 1, maxLength: 5 }) });
  const plan = (limits: fc.Arbitrary<number[]>) =>
    fc.record({ limits, imports: fc.array(fc.record({ atPerMille: fc.integer({ min: 0, max: 1000 }), batch }), { maxLength: 4 }) });

  const walkCodes = (p: WalkPlan<{ system: string; codes: string[] }>) =>
    walk<{ id: string }, string, { system: string; codes: string[] }>({
      ctx,
      path: '/v1/codes',
      plan: p,
      start: [...codeIds].sort(byteOrder),
      keyOf: (code) => code.id,
      compare: byteOrder,
      known: (id) => codeIds.has(id),
      async runImport({ system, codes }) {
        const rows = codes.map((code) => ({ code, display: `New ${code}` }));
        await ctx.importRows(rows, { system, release: nextRelease(), effectiveDate: '2024-01-01' });
        for (const code of codes) codeIds.add(`${system}:${code}`);
      },
    });

  test('limit 1', async () => {
    await fc.assert(fc.asyncProperty(plan(fixedLimit([1])), walkCodes), { numRuns: 1, endOnFailure: true });
  });

  test('limits 7, 50 and 200', async () => {
    await fc.assert(fc.asyncProperty(plan(fixedLimit([7, 50, 200])), walkCodes), { numRuns: 6, endOnFailure: true });
  });

  test('limits that change between pages', async () => {
    await fc.assert(fc.asyncProperty(plan(changingLimits), walkCodes), { numRuns: 10, endOnFailure: true });
  });
});

interface ChangeKey {
  date: string;
  id: number;
}
const changeOrder = (a: ChangeKey, b: ChangeKey) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id);

describe('walking /v1/changes over 5 000 changes on 3 effective dates', () => {
  let ctx: TestContext;
  const changes: ChangeKey[] = [];
  const known = new Set<string>();
  let latestDate = '2024-03-01';

  const importAndRecord = async (rows: Record<string, string>[], system: string, effectiveDate: string) => {
    const summary = await ctx.importRows(rows, { system, release: nextRelease(), effectiveDate });
    if (summary.firstChangeId === null || summary.lastChangeId === null) return;
    for (let id = summary.firstChangeId; id <= summary.lastChangeId; id++) {
      changes.push({ date: effectiveDate, id });
      known.add(`${effectiveDate}/${id}`);
    }
  };

  before(async () => {
    ctx = await createTestContext();
    const code = (i: number) => `K${String(i).padStart(4, '0')}`;
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    await importAndRecord(range(0, 2000).map((i) => ({ code: code(i), display: `Code ${i}` })), 'chg', '2024-01-01');
    await importAndRecord(range(0, 1500).map((i) => ({ code: code(i), display: `Code ${i}, revised` })), 'chg', '2024-02-01');
    await importAndRecord(
      [
        ...range(1500, 2000).map((i) => ({ code: code(i), display: `Code ${i}`, status: 'retired' })),
        ...range(2000, 3000).map((i) => ({ code: code(i), display: `Code ${i}` })),
      ],
      'chg',
      '2024-03-01',
    );
    assert.equal(changes.length, 5000);
  });
  after(() => ctx.close());

  // New changes take the latest effective date or, now and then, the day after it.
  const batch = fc.record({
    system: fc.constantFrom('chg', 'new'),
    codes: fc.uniqueArray(newCode, { minLength: 1, maxLength: 5 }),
    laterDate: fc.constantFrom(false, false, false, true),
  });
  const plan = (limits: fc.Arbitrary<number[]>) =>
    fc.record({ limits, imports: fc.array(fc.record({ atPerMille: fc.integer({ min: 0, max: 1000 }), batch }), { maxLength: 4 }) });

  const walkChanges = (p: WalkPlan<{ system: string; codes: string[]; laterDate: boolean }>) =>
    walk<{ id: number; effective_date: string }, ChangeKey, { system: string; codes: string[]; laterDate: boolean }>({
      ctx,
      path: '/v1/changes',
      plan: p,
      start: [...changes].sort(changeOrder),
      keyOf: (change) => ({ date: change.effective_date, id: change.id }),
      compare: changeOrder,
      known: (key) => known.has(`${key.date}/${key.id}`),
      async runImport({ system, codes, laterDate }) {
        if (laterDate) {
          const next = new Date(`${latestDate}T00:00:00Z`);
          next.setUTCDate(next.getUTCDate() + 1);
          latestDate = next.toISOString().slice(0, 10);
        }
        // A code seen before gets a new display: a revision instead of an addition.
        await importAndRecord(codes.map((code) => ({ code, display: `Changed in ${nextRelease()}` })), system, latestDate);
      },
    });

  test('limit 1', async () => {
    await fc.assert(fc.asyncProperty(plan(fixedLimit([1])), walkChanges), { numRuns: 1, endOnFailure: true });
  });

  test('limits 7, 50 and 200', async () => {
    await fc.assert(fc.asyncProperty(plan(fixedLimit([7, 50, 200])), walkChanges), { numRuns: 8, endOnFailure: true });
  });

  test('limits that change between pages', async () => {
    await fc.assert(fc.asyncProperty(plan(changingLimits), walkChanges), { numRuns: 12, endOnFailure: true });
  });
});

describe('a cursor outlives the process that issued it', () => {
  const SECRET = 'a-cursor-secret-of-more-than-32-characters';
  const rows = Array.from({ length: 12 }, (_, i) => ({ code: `R${i}`, display: `Code ${i}` }));
  const PATHS = ['/v1/codes', '/v1/changes', '/v1/codes/demo%3AR3/changes'];

  /** A server process over ctx's database file: its own deps and app, as after a restart. */
  async function startServer(ctx: TestContext, env: Record<string, string>) {
    const config = loadConfig({ ...env, DATABASE_URL: ctx.config.database.kind === 'sqlite' ? `sqlite:${ctx.config.database.path}` : '', LOG_LEVEL: 'silent' });
    const deps = await createDeps(config, { now: ctx.clock.now });
    const app = await buildApp(deps);
    await app.ready();
    return {
      // The key the context created lives in the database, so it authenticates here too.
      get: (url: string) => app.inject({ method: 'GET', url, headers: ctx.authHeaders }),
      async stop() {
        await app.close();
        await deps.close();
      },
    };
  }

  const ids = (res: LightMyRequestResponse) => res.json<Envelope<{ id: unknown }>>().data.map((r) => r.id);

  /**
   * Issues a cursor per collection, then stops ctx's app and starts a new one
   * on the same database file: each cursor must continue its walk the same way.
   */
  async function assertCursorsSurviveRestart(ctx: TestContext, env: Record<string, string>) {
    const issued = [];
    for (const path of PATHS) {
      const cursor = (await ctx.get(`${path}?limit=1`)).json().pagination.next_cursor as string;
      const url = `${path}?limit=5&cursor=${encodeURIComponent(cursor)}`;
      issued.push({ url, expected: ids(await ctx.get(url)) });
    }
    // ctx's deps stay open for ctx.close(): only the app goes, taking its in-memory state with it.
    await ctx.app.close();
    const server = await startServer(ctx, env);
    try {
      for (const { url, expected } of issued) {
        const res = await server.get(url);
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        assert.equal(expected.length, 5);
        assert.deepEqual(ids(res), expected, url);
      }
    } finally {
      await server.stop();
    }
    return issued;
  }

  async function withData(env: Record<string, string>, check: (ctx: TestContext) => Promise<void>) {
    const ctx = await createTestContext({ env });
    try {
      await ctx.importRows(rows, { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
      for (const [i, date] of ['2024-02-01', '2024-03-01', '2024-04-01', '2024-05-01', '2024-06-01', '2024-07-01'].entries()) {
        await ctx.importRows([{ code: 'R3', display: `Code 3, revision ${i}` }], { system: 'demo', release: `r${i + 2}`, effectiveDate: date });
      }
      await check(ctx);
    } finally {
      await ctx.close();
    }
  }

  test('with the secret generated and kept in the database', async () => {
    await withData({}, (ctx) => assertCursorsSurviveRestart(ctx, {}).then(() => undefined));
  });

  test('with CURSOR_SECRET set in the environment', async () => {
    await withData({ CURSOR_SECRET: SECRET }, async (ctx) => {
      const issued = await assertCursorsSurviveRestart(ctx, { CURSOR_SECRET: SECRET });
      // The environment's secret is the one that signs: another secret refuses the cursor.
      const rotated = await startServer(ctx, { CURSOR_SECRET: `${SECRET}, rotated` });
      try {
        const res = await rotated.get(issued[0]!.url);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'invalid_cursor');
      } finally {
        await rotated.stop();
      }
    });
  });
});
