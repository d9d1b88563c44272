/**
 * Paging properties, black-box over HTTP: a walk sees every record that
 * existed when it started exactly once, in order, while imports land between
 * its pages; and a cursor outlives the process that issued it. Each property
 * runs 100 times, each run over a small system of its own (walked with the
 * system filter); one walk covers the unfiltered collection over 2 000 codes.
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
  const res = await ctx.get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
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

// Runs per property: each run walks data of its own, kept small so that 100 runs cost what a few big walks did.
const RUNS = 100;

// Limits 1..7 walk many pages of small data; 200 and above (clamped) walk one.
const fixedLimit = fc.constantFrom(1, 2, 3, 7, 200).map((limit) => [limit]);
const changingLimits = fc.array(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 260 })), { minLength: 2, maxLength: 8 });

// Letters whose UTF-8 byte order differs from JS string order ('｡' U+FF61 sorts before
// '😀' U+1F600 in bytes, after it in UTF-16), plus the path-hostile characters.
const ALPHABET = ['A', 'a', 'Z', '0', '9', 'é', 'ß', '日', '😀', '｡', '/', '.', '-', ':', ' ', '%', '+'];
const newCode = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 4 })
  .map((chars) => chars.join(''))
  .filter((code) => code.trim() === code);

let releases = 0;
const nextRelease = () => `walk-${++releases}`;
let runs = 0;
/** A system of its own for each run: the walk filters by it, so earlier runs' data is not walked again. */
const nextSystem = (prefix: string) => `${prefix}${String(++runs).padStart(4, '0')}`;

/** An import lands in the walked system (its codes before, among or after the walk's position) or, as noise, in another. */
const batch = fc.record({ elsewhere: fc.boolean(), codes: fc.uniqueArray(newCode, { minLength: 1, maxLength: 4 }) });
type Batch = { elsewhere: boolean; codes: string[] };
const importsDuringWalk = fc.array(fc.record({ atPerMille: fc.integer({ min: 0, max: 1000 }), batch }), { maxLength: 3 });

describe(`walking /v1/codes: ${RUNS} runs per property, each over up to 20 codes of its own system`, () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await createTestContext();
  });
  after(() => ctx.close());

  const walkCodes = async (startCodes: string[], p: WalkPlan<Batch>) => {
    const system = nextSystem('c');
    const codeIds = new Set(startCodes.map((code) => `${system}:${code}`));
    if (startCodes.length > 0)
      await ctx.importRows(
        startCodes.map((code) => ({ code, display: `Code ${code}` })),
        { system, release: nextRelease(), effectiveDate: '2024-01-01' },
      );
    await walk<{ id: string }, string, Batch>({
      ctx,
      path: `/v1/codes?system=${system}`,
      plan: p,
      start: [...codeIds].sort(byteOrder),
      keyOf: (code) => code.id,
      compare: byteOrder,
      known: (id) => codeIds.has(id),
      async runImport({ elsewhere, codes }) {
        // Elsewhere: a system that sorts right after this one, so its codes would follow on an unfiltered page.
        const target = elsewhere ? `${system}-x` : system;
        await ctx.importRows(
          codes.map((code) => ({ code, display: `New ${code}` })),
          { system: target, release: nextRelease(), effectiveDate: '2024-01-01' },
        );
        if (!elsewhere) for (const code of codes) codeIds.add(`${system}:${code}`);
      },
    });
  };
  const start = fc.uniqueArray(newCode, { maxLength: 20 });
  const plan = (limits: fc.Arbitrary<number[]>) => fc.record({ limits, imports: importsDuringWalk });

  test('a fixed limit (1, 2, 3, 7 or 200)', async () => {
    await fc.assert(fc.asyncProperty(start, plan(fixedLimit), walkCodes), { numRuns: RUNS, endOnFailure: true });
  });

  test('limits that change between pages', async () => {
    await fc.assert(fc.asyncProperty(start, plan(changingLimits), walkCodes), { numRuns: RUNS, endOnFailure: true });
  });
});

describe('walking all of /v1/codes, unfiltered, over 2 000 codes of three systems', () => {
  test('imports before, among and after the position land between pages: every starting code once, in byte order', async () => {
    const ctx = await createTestContext();
    try {
      const PREFIXES = ['A', 'a', 'Z-', 'x.y/', 'c:', 'é', '日本', '😀', '｡', 'two words '];
      const codeIds = new Set<string>();
      const rows = Array.from({ length: 2_000 }, (_, i) => ({ code: `${PREFIXES[i % PREFIXES.length]}${i.toString(36)}`, display: `Code ${i}` }));
      await ctx.importRows(rows, { system: 'base', release: 'r1', effectiveDate: '2024-01-01' });
      for (const row of rows) codeIds.add(`base:${row.code}`);
      // New codes land before ('a'), among ('base') and after ('c') the starting ones, at several points of the walk.
      const imports = [0, 250, 500, 750, 999].flatMap((atPerMille, i) =>
        ['a', 'base', 'c'].map((system) => ({ atPerMille, batch: { system, codes: [`${PREFIXES[i]}new${i}`, `😀${i}`, `A${i}`] } })),
      );
      await walk<{ id: string }, string, { system: string; codes: string[] }>({
        ctx,
        path: '/v1/codes',
        plan: { limits: [1, 7, 200, 3, 260, 50, 2], imports },
        start: [...codeIds].sort(byteOrder),
        keyOf: (code) => code.id,
        compare: byteOrder,
        known: (id) => codeIds.has(id),
        async runImport({ system, codes }) {
          await ctx.importRows(
            codes.map((code) => ({ code, display: `New ${code}` })),
            { system, release: nextRelease(), effectiveDate: '2024-01-01' },
          );
          for (const code of codes) codeIds.add(`${system}:${code}`);
        },
      });
    } finally {
      await ctx.close();
    }
  });
});

interface ChangeKey {
  date: string;
  id: number;
}
const changeOrder = (a: ChangeKey, b: ChangeKey) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id);
const dayAfter = (date: string) => {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
};

describe(`walking /v1/changes: ${RUNS} runs per property, each over up to 24 changes of its own system on up to 3 dates`, () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await createTestContext();
  });
  after(() => ctx.close());

  // The starting history: up to 3 imports on successive dates, of codes from a small set, so that later imports revise earlier codes.
  const history = fc.array(fc.uniqueArray(fc.constantFrom('K1', 'K2', 'K3', 'K4', 'K5', 'K6', 'K7', 'K8'), { minLength: 1, maxLength: 8 }), { maxLength: 3 });
  // New changes take the latest effective date or, now and then, the day after it.
  const laterBatch = fc.record({
    elsewhere: fc.boolean(),
    codes: fc.uniqueArray(newCode, { minLength: 1, maxLength: 4 }),
    laterDate: fc.constantFrom(false, false, true),
  });
  type LaterBatch = Batch & { laterDate: boolean };
  const plan = (limits: fc.Arbitrary<number[]>) =>
    fc.record({ limits, imports: fc.array(fc.record({ atPerMille: fc.integer({ min: 0, max: 1000 }), batch: laterBatch }), { maxLength: 3 }) });

  const walkChanges = async (imports: string[][], p: WalkPlan<LaterBatch>) => {
    const system = nextSystem('h');
    const changes: ChangeKey[] = [];
    const known = new Set<string>();
    let latestDate = '2024-01-01';
    const importAndRecord = async (codes: string[], target: string, effectiveDate: string, display: string) => {
      const summary = await ctx.importRows(
        codes.map((code) => ({ code, display })),
        { system: target, release: nextRelease(), effectiveDate },
      );
      if (target !== system || summary.firstChangeId === null || summary.lastChangeId === null) return;
      for (let id = summary.firstChangeId; id <= summary.lastChangeId; id++) {
        changes.push({ date: effectiveDate, id });
        known.add(`${effectiveDate}/${id}`);
      }
    };
    for (const [i, codes] of imports.entries()) {
      if (i > 0) latestDate = dayAfter(latestDate);
      await importAndRecord(codes, system, latestDate, `Version ${i}`);
    }
    await walk<{ id: number; effective_date: string }, ChangeKey, LaterBatch>({
      ctx,
      path: `/v1/changes?system=${system}`,
      plan: p,
      start: [...changes].sort(changeOrder),
      keyOf: (change) => ({ date: change.effective_date, id: change.id }),
      compare: changeOrder,
      known: (key) => known.has(`${key.date}/${key.id}`),
      async runImport({ elsewhere, codes, laterDate }) {
        if (laterDate) latestDate = dayAfter(latestDate);
        // A code seen before gets a new display: a revision instead of an addition.
        await importAndRecord(codes, elsewhere ? `${system}-x` : system, latestDate, `Changed in ${nextRelease()}`);
      },
    });
  };

  test('a fixed limit (1, 2, 3, 7 or 200)', async () => {
    await fc.assert(fc.asyncProperty(history, plan(fixedLimit), walkChanges), { numRuns: RUNS, endOnFailure: true });
  });

  test('limits that change between pages', async () => {
    await fc.assert(fc.asyncProperty(history, plan(changingLimits), walkChanges), { numRuns: RUNS, endOnFailure: true });
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
