/**
 * The navigation reads share the exact read cache: an as-of record is kept
 * under its date, an as-of page or a hierarchy page whole under its URL
 * (another date is another entry, never the same answer), and a commit drops
 * them all, so a back-dated import is answered by the very next request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/services/import/importer.ts';
import { runCodebook } from '../helpers/cli.ts';
import { createTestContext, tempDir, toCsv, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext({ realClock: true });
  await ctx.importRows(
    [
      { code: 'P', display: 'Parent', parents: '' },
      { code: 'K', display: 'Kid', parents: 'P' },
    ],
    { system: 'n', release: '2023-01', effectiveDate: '2023-01-01', mode: 'snapshot' },
  );
  await ctx.importRows([{ code: 'P', display: 'Parent, 2024', parents: '' }], {
    system: 'n',
    release: '2024-01',
    effectiveDate: '2024-01-01',
    mode: 'delta',
  });
});
after(() => ctx.close());

async function body(path: string): Promise<{ display?: string; data?: { id: string; display: string }[] }> {
  const res = await ctx.get(path);
  assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
  return res.json();
}

const stats = () => ctx.deps.catalog.stats();

/** Reads path twice; the second answer comes from the cache alone and is the same. */
async function twice(path: string): Promise<unknown> {
  const first = await body(path);
  const before = stats();
  assert.deepEqual(await body(path), first);
  assert.equal(stats().hits, before.hits + 1, `${path}: the second read is a hit`);
  assert.equal(stats().misses, before.misses, `${path}: the second read is answered from the cache alone`);
  return first;
}

const displays = (page: unknown) => (page as { data: { id: string; display: string }[] }).data.map((c) => `${c.id} ${c.display}`);

describe('navigation reads through the read cache', () => {
  test('an as-of record is kept under its date: each date answers its own record', async () => {
    assert.equal(((await twice('/v1/codes/n:P?as_of=2023-06-30')) as { display: string }).display, 'Parent');
    assert.equal(((await twice('/v1/codes/n:P?as_of=2024-06-30')) as { display: string }).display, 'Parent, 2024');
    assert.equal((await body('/v1/codes/n:P')).display, 'Parent, 2024');
    assert.deepEqual(displays(await twice('/v1/codes?system=n&as_of=2023-06-30')), ['n:K Kid', 'n:P Parent']);
    assert.deepEqual(displays(await twice('/v1/codes?system=n&as_of=2024-06-30')), ['n:K Kid', 'n:P Parent, 2024']);
  });

  test('hierarchy pages are kept', async () => {
    assert.deepEqual(displays(await twice('/v1/codes/n:P/children')), ['n:K Kid']);
    assert.deepEqual(displays(await twice('/v1/codes/n:P/descendants')), ['n:K Kid']);
    assert.deepEqual(displays(await twice('/v1/codes/n:K/ancestors')), ['n:P Parent, 2024']);
    assert.deepEqual(displays(await twice('/v1/systems/n/roots')), ['n:P Parent, 2024']);
  });

  test('a code not there on a date is not kept: once a back-dated import adds it, the next read has it', async () => {
    assert.equal((await ctx.get('/v1/codes/n:L?as_of=2023-06-30')).statusCode, 404);
    await twice('/v1/codes/n:P?as_of=2023-06-30');
    await twice('/v1/codes/n:P/children');
    // Effective before the date read above: it changes that date's answers.
    const file = join(tempDir('codebook-nav-cache-'), 'back-dated.csv');
    writeFileSync(
      file,
      toCsv([
        { code: 'P', display: 'Parent, back-dated', parents: '' },
        { code: 'L', display: 'Late kid', parents: 'P' },
      ]),
    );
    await runImport(ctx.deps.store, { file, format: 'csv', mode: 'delta', system: 'n', release: '2023-03', effectiveDate: '2023-03-01', allowBackdated: true });
    assert.equal((await body('/v1/codes/n:P?as_of=2023-06-30')).display, 'Parent, back-dated');
    assert.equal((await body('/v1/codes/n:L?as_of=2023-06-30')).display, 'Late kid');
    assert.deepEqual(displays(await body('/v1/codes?system=n&as_of=2023-06-30')), ['n:K Kid', 'n:L Late kid', 'n:P Parent, back-dated']);
    assert.deepEqual(displays(await body('/v1/codes/n:P/children')), ['n:K Kid', 'n:L Late kid']);
    const now = JSON.parse((await ctx.deps.store.codeJson('n:P'))!) as { display: string };
    assert.deepEqual(displays(await body('/v1/codes/n:L/ancestors')), [`n:P ${now.display}`], 'as the store has it now');
  });

  test('a cached ancestors page is the page the store gives, at every position, and never stale', async () => {
    const chain = ['A', 'B', 'C', 'D', 'E'].map((code, i, all) => ({ code, display: `Level ${code}`, parents: i === 0 ? '' : all[i - 1]! }));
    await ctx.importRows(chain, { system: 'up', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
    // Some ancestors' records in the cache, others not: pages must not depend on it.
    await body('/v1/codes/up:B');
    await body('/v1/codes/up:D');
    const walk = async () => {
      const seen: string[] = [];
      let path = '/v1/codes/up:E/ancestors?limit=2';
      for (;;) {
        const page = (await body(path)) as unknown as { data: { id: string; display: string }[]; pagination: { next_cursor?: string } };
        seen.push(...page.data.map((c) => `${c.id} ${c.display}`));
        if (page.pagination.next_cursor === undefined) return seen;
        path = `/v1/codes/up:E/ancestors?limit=2&cursor=${page.pagination.next_cursor}`;
      }
    };
    const expected = ['up:D Level D', 'up:C Level C', 'up:B Level B', 'up:A Level A'];
    assert.deepEqual(await walk(), expected);
    const stored = await ctx.deps.store.navigation.pageAncestors({ id: 'up:E', after: null, limit: 50, status: null });
    assert.equal(
      (await body('/v1/codes/up:E/ancestors')).data!.map((c) => JSON.stringify(c)).join(','),
      stored.json.toString('utf8'),
      'the same bytes as the store',
    );
    assert.deepEqual(await walk(), expected, 'read again, from the cache');

    // Another process revises a cached ancestor: the very next page has its new display.
    const file = join(tempDir('codebook-nav-cache-'), 'revised.csv');
    writeFileSync(file, toCsv([{ code: 'B', display: 'Level B, revised', parents: 'A' }]));
    const settings = { DATABASE_URL: `sqlite:${ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : ''}` };
    const run = await runCodebook(['import', file, '--system', 'up', '--release', 'r2', '--effective-date', '2024-02-01', '--mode', 'delta', '--json'], {
      settings,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await walk(), ['up:D Level D', 'up:C Level C', 'up:B Level B, revised', 'up:A Level A']);
  });
});
