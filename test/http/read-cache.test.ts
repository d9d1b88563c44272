/**
 * The in-process cache of records and pages is exact: once an import by
 * another process (the CLI) or another instance has returned, the very next
 * request answers the new data, on SQLite and on PostgreSQL + Redis. And it is
 * bounded: filled past READ_CACHE_MB, it evicts, and what it serves after
 * evicting is still right.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Deps } from '../../src/deps.ts';
import { runImport } from '../../src/services/import/importer.ts';
import { runCodebook } from '../helpers/cli.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { createTestContext, tempDir, toCsv, type TestContext } from '../helpers/context.ts';
import { skipUnlessBoth } from '../helpers/services.ts';

interface Reader {
  deps: Deps;
  get(path: string): Promise<{ status: number; body: string }>;
}

let files = 0;
function csvFile(rows: Record<string, string>[]): string {
  const file = join(tempDir('codebook-cache-'), `rows-${++files}.csv`);
  writeFileSync(file, toCsv(rows));
  return file;
}

function importArgs(file: string, release: string, date: string): string[] {
  return ['import', file, '--system', 'cache', '--release', release, '--effective-date', date, '--mode', 'delta', '--json'];
}

async function display(reader: Reader, id: string): Promise<string> {
  const res = await reader.get(`/v1/codes/${id}`);
  assert.equal(res.status, 200, res.body);
  return (JSON.parse(res.body) as { display: string }).display;
}

async function firstPageDisplays(reader: Reader): Promise<string[]> {
  const res = await reader.get('/v1/codes?limit=3&system=cache');
  assert.equal(res.status, 200, res.body);
  return (JSON.parse(res.body) as { data: { display: string }[] }).data.map((c) => c.display);
}

async function changeCount(reader: Reader): Promise<number> {
  const res = await reader.get('/v1/changes?limit=200&system=cache');
  return (JSON.parse(res.body) as { data: unknown[] }).data.length;
}

/** Reads twice, so that the second answer comes from the cache; checks it did. */
async function cached(reader: Reader): Promise<void> {
  await display(reader, 'cache:A');
  await firstPageDisplays(reader);
  await changeCount(reader);
  const hits = reader.deps.catalog.stats().hits;
  assert.equal(await display(reader, 'cache:A'), await display(reader, 'cache:A'));
  await firstPageDisplays(reader);
  await changeCount(reader);
  assert.ok(reader.deps.catalog.stats().hits >= hits + 4, 'answered from the cache');
}

/** Every record a fill imports is this long, so that a few thousand exceed 1 MB. */
const PADDING = 'x'.repeat(900);

async function fillPastTheBound(reader: Reader, importRows: (rows: Record<string, string>[]) => Promise<void>): Promise<void> {
  const rows = Array.from({ length: 1_400 }, (_, i) => ({ code: `F${String(i).padStart(5, '0')}`, display: `Fill ${i} ${PADDING}` }));
  await importRows(rows);
  const { maxBytes } = reader.deps.catalog.stats();
  assert.equal(maxBytes, 1024 * 1024);
  for (const row of rows) assert.equal(await display(reader, `cache:${row.code}`), row.display);
  const stats = reader.deps.catalog.stats();
  assert.ok(stats.bytes <= maxBytes, `${stats.bytes} bytes held, bound ${maxBytes}`);
  assert.ok(stats.evictions > 0 && stats.entries < rows.length, `evicted ${stats.evictions}, holds ${stats.entries} of ${rows.length}`);
  // The first ones were evicted: read again, they are still right (and cached again).
  for (const row of rows.slice(0, 20)) assert.equal(await display(reader, `cache:${row.code}`), row.display);
}

describe('the read cache on SQLite: a server on file F, the CLI and other processes on F', () => {
  let ctx: TestContext;
  let settings: Record<string, string>;
  let reader: Reader;
  before(async () => {
    ctx = await createTestContext({ env: { READ_CACHE_MB: '1' }, realClock: true });
    settings = { DATABASE_URL: `sqlite:${ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : ''}` };
    reader = {
      deps: ctx.deps,
      get: async (path) => {
        const res = await ctx.get(path);
        return { status: res.statusCode, body: res.body };
      },
    };
    await ctx.importRows(
      [
        { code: 'A', display: 'Alpha' },
        { code: 'B', display: 'Beta' },
      ],
      { system: 'cache', release: 'r1', effectiveDate: '2024-01-01' },
    );
  });
  after(() => ctx.close());

  test('an import by the CLI in another process: the very next request answers the new record and pages', async () => {
    await cached(reader);
    const changes = await changeCount(reader);
    const run = await runCodebook(importArgs(csvFile([{ code: 'A', display: 'Alpha revised' }]), 'r2', '2024-02-01'), { settings });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await display(reader, 'cache:A'), 'Alpha revised');
    assert.deepEqual(await firstPageDisplays(reader), ['Alpha revised', 'Beta']);
    assert.equal(await changeCount(reader), changes + 1);
  });

  test('an import in this process: the very next request answers it', async () => {
    await cached(reader);
    await ctx.importRows([{ code: 'B', display: 'Beta revised' }], { system: 'cache', release: 'r3', effectiveDate: '2024-03-01' });
    assert.deepEqual(await firstPageDisplays(reader), ['Alpha revised', 'Beta revised']);
  });

  test('filled past READ_CACHE_MB, it evicts and stays within the bound', async () => {
    await fillPastTheBound(reader, async (rows) => {
      await ctx.importRows(rows, { system: 'cache', release: 'fill', effectiveDate: '2024-04-01' });
    });
  });
});

const skip = await skipUnlessBoth();

describe('the read cache on PostgreSQL + Redis: two instances, the CLI in another process', { skip }, () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  const readerOf = (instance: Instance): Reader => ({
    deps: instance.deps,
    get: async (path) => {
      const res = await instance.get(path, key);
      return { status: res.status, body: await res.text() };
    },
  });
  let key = '';

  before(async () => {
    cluster = await createCluster('readcache');
    a = await cluster.instance({ env: { READ_CACHE_MB: '1' } });
    b = await cluster.instance({ env: { READ_CACHE_MB: '1' } });
    key = (await cluster.customer('cache', { ratePerMinute: 1_000_000, monthlyQuota: null })).key;
    await runImport(a.deps.store, {
      file: csvFile([
        { code: 'A', display: 'Alpha' },
        { code: 'B', display: 'Beta' },
      ]),
      format: 'csv',
      mode: 'delta',
      system: 'cache',
      release: 'r1',
      effectiveDate: '2024-01-01',
    });
  });
  after(async () => {
    await cluster?.close();
  });

  test('an import by the CLI: the very next request to each instance answers the new record and pages', async () => {
    for (const instance of [a, b]) await cached(readerOf(instance));
    const run = await runCodebook(importArgs(csvFile([{ code: 'A', display: 'Alpha revised' }]), 'r2', '2024-02-01'), { settings: cluster.env });
    assert.equal(run.code, 0, run.stderr);
    for (const instance of [a, b]) {
      assert.equal(await display(readerOf(instance), 'cache:A'), 'Alpha revised');
      assert.deepEqual(await firstPageDisplays(readerOf(instance)), ['Alpha revised', 'Beta']);
      assert.equal(await changeCount(readerOf(instance)), 3);
    }
  });

  test('an import through one instance: the very next request to the other answers it', async () => {
    for (const instance of [a, b]) await cached(readerOf(instance));
    await runImport(a.deps.store, {
      file: csvFile([{ code: 'B', display: 'Beta revised' }]),
      format: 'csv',
      mode: 'delta',
      system: 'cache',
      release: 'r3',
      effectiveDate: '2024-03-01',
    });
    for (const instance of [b, a]) assert.deepEqual(await firstPageDisplays(readerOf(instance)), ['Alpha revised', 'Beta revised']);
  });

  test('filled past READ_CACHE_MB, it evicts and stays within the bound', async () => {
    await fillPastTheBound(readerOf(a), async (rows) => {
      await runImport(a.deps.store, { file: csvFile(rows), format: 'csv', mode: 'delta', system: 'cache', release: 'fill', effectiveDate: '2024-04-01' });
    });
  });
});
