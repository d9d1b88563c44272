/**
 * Store suite, navigation: hierarchy pages, as-of reads and batch lookups,
 * written by real imports. Property tests draw random hierarchies and random
 * import histories; expected answers are computed here from the rows alone.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import type { ChangeRecord, CodeRecord, CodeStatus } from '../../src/domain/records.ts';
import { runImport } from '../../src/services/import/importer.ts';
import type { AncestorKey, BatchRecords } from '../../src/store/navigation-store.ts';
import type { RawPage, Store } from '../../src/store/store.ts';
import { tempDir, toCsv } from '../helpers/context.ts';
import { binaryOrder, NO_CHANGE_FILTERS, type OpenStore } from './suite-fixtures.ts';

let files = 0;
// A backend without a folder of its own (PostgreSQL) gets one for its import files.
let scratch: string | null = null;
async function importInto(
  store: Store,
  dir: string,
  rows: Record<string, string>[],
  o: { release: string; effectiveDate: string; mode: 'snapshot' | 'delta' },
) {
  return runImport(store, { file: csv(dir, rows), format: 'csv', system: 'n', ...o, allowBackdated: true, allowMassRetire: true });
}

/** Every key and record of a walk, page by page at `limit`. */
async function walk<K>(limit: number, next: (after: K | null) => Promise<RawPage<K>>): Promise<{ id: string }[]> {
  const out: { id: string }[] = [];
  let after: K | null = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await next(after);
    assert.ok(page.count <= limit);
    const records = JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[];
    assert.equal(records.length, page.count);
    out.push(...records);
    if (!page.hasMore) return out;
    after = page.last;
  }
  return assert.fail('paging did not end');
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);

/** Shortest distance to every code reachable through `step`. */
function reach(start: string, step: (id: string) => string[]): Map<string, number> {
  const distance = new Map<string, number>();
  let frontier = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const n of step(id)) {
        if (n === start || distance.has(n)) continue;
        distance.set(n, d);
        next.push(n);
      }
    }
    frontier = next;
  }
  return distance;
}

/** Codes N0…N{n-1}; each names 0–2 parents among the codes before it, so the graph has no cycle. */
const hierarchy = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        parents: i === 0 ? fc.constant([] as number[]) : fc.uniqueArray(fc.integer({ min: 0, max: i - 1 }), { maxLength: 2 }),
        status: fc.constantFrom<CodeStatus>('active', 'active', 'deprecated', 'retired'),
      }),
    ),
  ),
);

type Graph = { parents: number[]; status: CodeStatus }[];

async function assertHierarchy(store: Store, graph: Graph, limit: number): Promise<void> {
  const id = (i: number) => `n:N${i}`;
  const parentsOf = new Map(graph.map((g, i) => [id(i), g.parents.map(id)]));
  const childrenOf = (p: string) => [...parentsOf].filter(([, ps]) => ps.includes(p)).map(([c]) => c);
  const statusOf = new Map(graph.map((g, i) => [id(i), g.status]));
  const nav = store.navigation;
  for (let i = 0; i < graph.length; i++) {
    for (const status of [null, 'active'] as const) {
      const keep = (c: string) => status === null || statusOf.get(c) === status;
      const children = childrenOf(id(i)).filter(keep).sort(binaryOrder);
      assert.deepEqual(
        ids(await walk(limit, (after: string | null) => nav.pageChildren({ id: id(i), after, limit, status }))),
        children,
        `children of ${id(i)}`,
      );
      const below = [...reach(id(i), childrenOf).keys()].filter(keep).sort(binaryOrder);
      assert.deepEqual(
        ids(await walk(limit, (after: string | null) => nav.pageDescendants({ id: id(i), after, limit, status }))),
        below,
        `descendants of ${id(i)}`,
      );
      const above = [...reach(id(i), (c) => parentsOf.get(c) ?? [])]
        .filter(([a]) => keep(a))
        .sort((x, y) => x[1] - y[1] || binaryOrder(x[0], y[0]))
        .map(([a]) => a);
      assert.deepEqual(
        ids(await walk(limit, (after: AncestorKey | null) => nav.pageAncestors({ id: id(i), after, limit, status }))),
        above,
        `ancestors of ${id(i)}`,
      );
    }
  }
  const roots = graph
    .map((g, i) => [id(i), g] as const)
    .filter(([, g]) => g.parents.length === 0)
    .map(([c]) => c)
    .sort(binaryOrder);
  assert.deepEqual(ids(await walk(limit, (after: string | null) => nav.pageRoots({ system: 'n', after, limit, status: null }))), roots, 'roots');
}

const rowsOf = (graph: Graph) =>
  graph.map((g, i) => ({ code: `N${i}`, display: `Code ${i}`, status: g.status, parents: g.parents.map((p) => `N${p}`).join(';') }));

/**
 * The code set as it stood on `date`, rebuilt here by replaying every change
 * effective on or before it. `effective_from` is the date of the change that
 * added the code, whenever that is (a back-dated revision may come first).
 */
async function replay(store: Store, date: string): Promise<Map<string, CodeRecord>> {
  const state = new Map<string, CodeRecord>();
  const addedOn = new Map<string, string>();
  for (const c of JSON.parse(
    `[${(await store.pageChanges({ ...NO_CHANGE_FILTERS, type: 'added', after: null, limit: 200 })).json.toString('utf8')}]`,
  ) as ChangeRecord[])
    addedOn.set(c.code_id, c.effective_date);
  let after: { effectiveDate: string; id: number } | null = null;
  for (;;) {
    const page = await store.pageChanges({ ...NO_CHANGE_FILTERS, effectiveTo: date, after, limit: 200 });
    for (const c of JSON.parse(`[${page.json.toString('utf8')}]`) as ChangeRecord[]) {
      const before = state.get(c.code_id);
      const system = c.code_id.slice(0, c.code_id.indexOf(':'));
      state.set(c.code_id, {
        object: 'code',
        id: c.code_id,
        system,
        code: c.code_id.slice(system.length + 1),
        ...(before ?? { display: '', definition: null, status: 'active', parents: [], attributes: {} }),
        ...c.after,
        release: c.release,
        effective_from: addedOn.get(c.code_id) ?? before?.effective_from ?? c.effective_date,
        updated_at: c.recorded_at,
      });
    }
    if (!page.hasMore) return state;
    after = page.last;
  }
}

const DATES = ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01'];
const history = fc.array(
  fc.record({
    date: fc.constantFrom(...DATES),
    mode: fc.constantFrom<'snapshot' | 'delta'>('snapshot', 'delta'),
    rows: fc.uniqueArray(
      fc.record({
        code: fc.integer({ min: 0, max: 5 }),
        display: fc.constantFrom('x', 'y'),
        status: fc.constantFrom<CodeStatus>('active', 'deprecated', 'retired'),
        parent: fc.boolean(),
      }),
      { selector: (r) => r.code, minLength: 1, maxLength: 6 },
    ),
  }),
  { minLength: 1, maxLength: 5 },
);

export function navigationTests(open: OpenStore): void {
  after(() => {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  });

  test('property: children, descendants, ancestors and roots page exactly as the graph says, at every page size', async () => {
    await fc.assert(
      fc.asyncProperty(hierarchy, hierarchy, fc.integer({ min: 1, max: 4 }), async (first, second, limit) => {
        const opened = await open();
        try {
          await importInto(opened.store, opened.dir, rowsOf(first), { release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
          await assertHierarchy(opened.store, first, limit);
          // A second snapshot rewires the graph: the closure follows every moved subtree.
          await importInto(opened.store, opened.dir, rowsOf(second), { release: 'r2', effectiveDate: '2024-02-01', mode: 'snapshot' });
          const retired = first.slice(second.length).map((g) => ({ parents: g.parents, status: 'retired' as const }));
          const kept = [...second, ...retired].map((g, i) => (i < second.length ? g : { ...g, parents: g.parents.filter((p) => p < first.length) }));
          await assertHierarchy(opened.store, kept, limit);
        } finally {
          await opened.cleanup();
        }
      }),
      { numRuns: 8 },
    );
  });

  test('property: as-of reads, lists and batches equal the state rebuilt by replaying the changes up to the date', async () => {
    await fc.assert(
      fc.asyncProperty(history, fc.integer({ min: 1, max: 4 }), async (imports, limit) => {
        const opened = await open();
        const { store } = opened;
        try {
          let release = 0;
          for (const step of imports) {
            const rows = step.rows.map((r) => ({
              code: `N${r.code}`,
              display: r.display,
              status: r.status,
              parents: r.parent && r.code > 0 ? `N${r.code - 1}` : '',
            }));
            // A parent must be in the file or stored; a row whose parent is neither drops it.
            const present = new Set(rows.map((r) => r.code));
            for (const r of rows)
              if (r.parents && !present.has(r.parents) && (step.mode === 'snapshot' || !(await store.codeExists(`n:${r.parents}`)))) r.parents = '';
            await importInto(store, opened.dir, rows, { release: `r${++release}`, effectiveDate: step.date, mode: step.mode });
          }
          for (const date of ['2023-12-31', ...DATES, '2024-01-15', '2024-12-31']) {
            const expected = await replay(store, date);
            const listed = await walk(limit, (after: string | null) =>
              store.navigation.pageCodesAsOf({ asOf: date, after, limit, system: null, status: null }),
            );
            assert.deepEqual(
              listed,
              [...expected.keys()].sort(binaryOrder).map((k) => expected.get(k)),
              `list as of ${date}`,
            );
            const retired = await walk(limit, (after: string | null) =>
              store.navigation.pageCodesAsOf({ asOf: date, after, limit, system: 'n', status: 'retired' }),
            );
            assert.deepEqual(
              ids(retired),
              [...expected.values()]
                .filter((c) => c.status === 'retired')
                .map((c) => c.id)
                .sort(binaryOrder),
              `retired as of ${date}`,
            );
            const all = Array.from({ length: 6 }, (_, i) => `n:N${i}`);
            const batch = await store.navigation.codesBatch(all, date);
            const singles: (string | null)[] = [];
            for (const id of all) {
              const one = await store.navigation.codeJsonAsOf(id, date);
              assert.deepEqual(one === null ? null : JSON.parse(one), expected.get(id) ?? null, `${id} as of ${date}`);
              singles.push(one);
            }
            assert.equal(batch.json.toString(), singles.filter((one) => one !== null).join(','), `a batch as of ${date}: the records, in the order asked`);
            assert.deepEqual(
              batch.missing,
              all.filter((_, i) => singles[i] === null),
              `a batch as of ${date}: the ids not found`,
            );
          }
        } finally {
          await opened.cleanup();
        }
      }),
      {
        numRuns: 10,
        examples: [
          [
            [
              { date: '2024-03-01', mode: 'snapshot', rows: [{ code: 2, display: 'x', status: 'active', parent: false }] },
              { date: '2024-01-01', mode: 'snapshot', rows: [{ code: 2, display: 'x', status: 'deprecated', parent: false }] },
              {
                date: '2024-04-01',
                mode: 'snapshot',
                rows: [
                  { code: 2, display: 'y', status: 'deprecated', parent: false },
                  { code: 0, display: 'x', status: 'active', parent: false },
                ],
              },
            ],
            1,
          ],
        ],
      },
    );
  });

  test('a chain too deep to keep its closure is walked instead, with the same answers', async () => {
    await withOpened(open, async (store, dir) => {
      const depth = 1_500; // 1 124 250 pairs: over the closure budget for 1 500 codes
      const rows = Array.from({ length: depth }, (_, i) => ({
        code: `C${String(i).padStart(4, '0')}`,
        display: `Level ${i}`,
        parents: i === 0 ? '' : `C${String(i - 1).padStart(4, '0')}`,
      }));
      await runImport(store, { file: csv(dir, rows), format: 'csv', system: 'deep', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
      const id = (i: number) => `deep:C${String(i).padStart(4, '0')}`;
      // A walk costs a query per level: near the ends of the chain, to keep the test short.
      const below = await walk(30, (after: string | null) => store.navigation.pageDescendants({ id: id(1_400), after, limit: 30, status: null }));
      assert.deepEqual(
        ids(below),
        Array.from({ length: depth - 1_401 }, (_, k) => id(1_401 + k)),
      );
      const above = await walk(30, (after: AncestorKey | null) => store.navigation.pageAncestors({ id: id(100), after, limit: 30, status: null }));
      assert.deepEqual(
        ids(above),
        Array.from({ length: 100 }, (_, k) => id(99 - k)),
        'nearest first',
      );
      assert.deepEqual(ids(await walk(5, (after: string | null) => store.navigation.pageChildren({ id: id(7), after, limit: 5, status: null }))), [id(8)]);
    });
  });

  test('a system whose closure grows past the budget is walked from the next read on', async () => {
    await withOpened(open, async (store, dir) => {
      const chain = (depth: number) =>
        Array.from({ length: depth }, (_, i) => ({
          code: `C${String(i).padStart(4, '0')}`,
          display: `Level ${i}`,
          parents: i === 0 ? '' : `C${String(i - 1).padStart(4, '0')}`,
        }));
      const id = (i: number) => `deep:C${String(i).padStart(4, '0')}`;
      const ancestorsOf = (i: number) => walk(30, (after: AncestorKey | null) => store.navigation.pageAncestors({ id: id(i), after, limit: 30, status: null }));
      await runImport(store, { file: csv(dir, chain(3)), format: 'csv', system: 'deep', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
      assert.deepEqual(ids(await ancestorsOf(2)), [id(1), id(0)], 'read from the kept closure');
      await runImport(store, { file: csv(dir, chain(1_500)), format: 'csv', system: 'deep', release: 'r2', effectiveDate: '2024-02-01', mode: 'snapshot' });
      assert.deepEqual(
        ids(await ancestorsOf(40)),
        Array.from({ length: 40 }, (_, k) => id(39 - k)),
        'the closure is no longer kept: the read walks the edges at once',
      );
    });
  });

  test('batch lookups answer the ids found, now and as of a date', async () => {
    await withOpened(open, async (store, dir) => {
      await importInto(
        store,
        dir,
        [
          { code: 'A', display: 'a' },
          { code: 'B', display: 'b' },
        ],
        { release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
      );
      await importInto(store, dir, [{ code: 'C', display: 'c' }], { release: 'r2', effectiveDate: '2024-02-01', mode: 'delta' });
      const batchIds = (records: BatchRecords) => [(JSON.parse(`[${records.json.toString()}]`) as { id: string }[]).map((r) => r.id), records.missing];
      assert.deepEqual(batchIds(await store.navigation.codesBatch(['n:C', 'n:X', 'n:A'], null)), [['n:C', 'n:A'], ['n:X']]);
      assert.deepEqual(batchIds(await store.navigation.codesBatch(['n:C', 'n:X', 'n:A'], '2024-01-31')), [['n:A'], ['n:C', 'n:X']]);
      assert.equal(await store.navigation.systemExists('n'), true);
      assert.equal(await store.navigation.systemExists('m'), false);
    });
  });
}

function csv(dir: string, rows: Record<string, string>[]): string {
  const file = join(dir || (scratch ??= tempDir()), `nav-${process.pid}-${++files}.csv`);
  writeFileSync(file, toCsv(rows));
  return file;
}

async function withOpened(open: OpenStore, fn: (store: Store, dir: string) => Promise<void>): Promise<void> {
  const opened = await open();
  try {
    await fn(opened.store, opened.dir);
  } finally {
    await opened.cleanup();
  }
}
