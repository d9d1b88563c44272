/**
 * The systems and releases reads share the exact read cache: a second read is
 * a hit, and a change by another process (the CLI's `systems set`, an import)
 * or by this one is answered by the very next request, on SQLite and on
 * PostgreSQL + Redis (two instances).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Deps } from '../../src/deps.ts';
import { runCodebook } from '../helpers/cli.ts';
import { createCluster, type Cluster } from '../helpers/cluster.ts';
import { createTestContext, tempDir, toCsv, type TestContext } from '../helpers/context.ts';
import { skipUnlessBoth } from '../helpers/services.ts';

interface Reader {
  deps: Deps;
  get(path: string): Promise<{ status: number; body: string }>;
}

interface SystemBody {
  name: string;
  publisher: string | null;
  counts: { active: number };
  latest_release: string;
}

async function body<T>(reader: Reader, path: string): Promise<T> {
  const res = await reader.get(path);
  assert.equal(res.status, 200, `${path}: ${res.body}`);
  return JSON.parse(res.body) as T;
}

/** Reads path twice: the second answer is a hit and the same. */
async function twice<T>(reader: Reader, path: string): Promise<T> {
  const first = await body<T>(reader, path);
  const before = reader.deps.catalog.stats().hits;
  assert.deepEqual(await body<T>(reader, path), first);
  assert.equal(reader.deps.catalog.stats().hits, before + 1, `${path}: the second read is a hit`);
  return first;
}

const system = (page: { data: (SystemBody & { id: string })[] }) => page.data.find((s) => s.id === 'ys')!;
const releases = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

function csvFile(rows: Record<string, string>[]): string {
  const file = join(tempDir('codebook-systems-cache-'), 'rows.csv');
  writeFileSync(file, toCsv(rows));
  return file;
}

const importArgs = (file: string, release: string, date: string) => [
  'import',
  file,
  '--system',
  'ys',
  '--release',
  release,
  '--effective-date',
  date,
  '--mode',
  'delta',
  '--json',
];

/** The same walk on each backend: readers are the instances, settings the CLI's. */
function cacheTests(readers: () => Reader[], settings: () => Record<string, string>): void {
  test('the list, one system and its releases are kept', async () => {
    for (const reader of readers()) {
      assert.equal(system(await twice(reader, '/v1/systems')).name, 'ys');
      assert.equal((await twice<SystemBody>(reader, '/v1/systems/ys')).latest_release, 'r1');
      assert.deepEqual(releases(await twice(reader, '/v1/systems/ys/releases')), ['r1']);
    }
  });

  test('an unknown system is not kept: it is a 404 each time', async () => {
    const [reader] = readers();
    const entries = reader!.deps.catalog.stats().entries;
    for (let i = 0; i < 2; i++) assert.equal((await reader!.get('/v1/systems/nope')).status, 404);
    assert.equal(reader!.deps.catalog.stats().entries, entries);
  });

  test('`systems set` in another process: the very next request answers the new name', async () => {
    for (const reader of readers()) await twice(reader, '/v1/systems/ys');
    const run = await runCodebook(['systems', 'set', 'ys', '--name', 'Why system', '--json'], { settings: settings() });
    assert.equal(run.code, 0, run.stderr);
    for (const reader of readers()) {
      assert.equal((await body<SystemBody>(reader, '/v1/systems/ys')).name, 'Why system');
      assert.equal(system(await body(reader, '/v1/systems')).name, 'Why system');
    }
  });

  test('an import in another process: the next request has its release and counts', async () => {
    for (const reader of readers()) {
      await twice(reader, '/v1/systems/ys/releases');
      await twice(reader, '/v1/systems');
    }
    const run = await runCodebook(importArgs(csvFile([{ code: 'B', display: 'Beta' }]), 'r2', '2024-02-01'), { settings: settings() });
    assert.equal(run.code, 0, run.stderr);
    for (const reader of readers()) {
      assert.deepEqual(releases(await body(reader, '/v1/systems/ys/releases')), ['r1', 'r2']);
      assert.equal(system(await body(reader, '/v1/systems')).counts.active, 2);
      assert.equal((await body<SystemBody>(reader, '/v1/systems/ys')).latest_release, 'r2');
    }
  });
}

describe('systems and releases through the read cache, SQLite', () => {
  let ctx: TestContext;
  let reader: Reader;
  before(async () => {
    ctx = await createTestContext({ realClock: true });
    reader = {
      deps: ctx.deps,
      get: async (path) => {
        const res = await ctx.get(path);
        return { status: res.statusCode, body: res.body };
      },
    };
    await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'ys', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  });
  after(() => ctx.close());

  cacheTests(
    () => [reader],
    () => ({ DATABASE_URL: `sqlite:${ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : ''}` }),
  );

  test('a change written through the cached store: the next request answers it', async () => {
    await twice(reader, '/v1/systems/ys');
    await ctx.deps.catalog.systems.updateSystem('ys', { publisher: 'Us' }, new Date().toISOString());
    assert.equal((await body<SystemBody>(reader, '/v1/systems/ys')).publisher, 'Us');
  });
});

const skip = await skipUnlessBoth();

describe('systems and releases through the read cache, PostgreSQL + Redis: two instances', { skip }, () => {
  let cluster: Cluster;
  const readersOf: Reader[] = [];
  before(async () => {
    cluster = await createCluster('syscache');
    const instances = [await cluster.instance({ env: { READ_CACHE_MB: '1' } }), await cluster.instance({ env: { READ_CACHE_MB: '1' } })];
    const key = (await cluster.customer('syscache', { ratePerMinute: 1_000_000, monthlyQuota: null }, ['systems.list'])).key;
    for (const instance of instances) {
      readersOf.push({
        deps: instance.deps,
        get: async (path) => {
          const res = await instance.get(path, key);
          return { status: res.status, body: await res.text() };
        },
      });
    }
    const run = await runCodebook(importArgs(csvFile([{ code: 'A', display: 'Alpha' }]), 'r1', '2024-01-01'), { settings: cluster.env });
    assert.equal(run.code, 0, run.stderr);
  });
  after(async () => {
    await cluster?.close();
  });

  cacheTests(
    () => readersOf,
    () => cluster.env,
  );
});
