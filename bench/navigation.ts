/**
 * Store-level timings of the navigation reads (issue 14), beside the reads
 * they are compared with, on a fresh SQLite file: a hierarchical system
 * (six levels, every tenth code with a second parent) and a flat one of the
 * same size, imported through runImport; then per-call medians.
 *
 *   npx node bench/navigation.ts [--codes 100000]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImport } from '../src/services/import/importer.ts';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.ts';

const at = process.argv.indexOf('--codes');
const CODES = at > 0 ? Number(process.argv[at + 1]) : 100_000;
const dir = mkdtempSync(join(tmpdir(), 'codebook-nav-bench-'));
const store = new SqliteStore({ path: join(dir, 'bench.db') });

const FANOUT = Math.ceil(Math.pow(CODES, 1 / 5)); // six levels
const code = (i: number) => `C${String(i).padStart(7, '0')}`;
function csv(name: string, hierarchy: boolean, revision = ''): string {
  const lines = ['code,display,parents'];
  for (let i = 0; i < CODES; i++) {
    const parent = i === 0 ? -1 : Math.floor((i - 1) / FANOUT);
    const parents = !hierarchy || parent < 0 ? [] : [code(parent), ...(i % 10 === 0 && parent > 0 ? [code(parent - 1)] : [])];
    lines.push(`${code(i)},Display ${i}${i % 3 === 0 ? revision : ''},${parents.join(';')}`);
  }
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function timed(label: string, fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  console.log(`${label}: ${ms.toFixed(0)} ms`);
  return ms;
}

const flat = await timed(`import flat ${CODES}`, () =>
  runImport(store, { file: csv('flat.csv', false), format: 'csv', system: 'flat', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' }),
);
const tree = await timed(`import hierarchy ${CODES}`, () =>
  runImport(store, { file: csv('tree.csv', true), format: 'csv', system: 'tree', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' }),
);
console.log(`hierarchy ÷ flat import: ${(tree / flat).toFixed(2)}`);
await timed('revise a third of the hierarchy (2024-06-01)', () =>
  runImport(store, { file: csv('tree2.csv', true, ' revised'), format: 'csv', system: 'tree', release: 'r2', effectiveDate: '2024-06-01', mode: 'snapshot' }),
);
await timed('revise a third of the hierarchy (2025-01-01)', () =>
  runImport(store, { file: csv('tree3.csv', true, ' again'), format: 'csv', system: 'tree', release: 'r3', effectiveDate: '2025-01-01', mode: 'snapshot' }),
);

const db = store.db;
// The version table and whatever indexes it has (the table is clustered by code since migration 9).
const versionBytes = Number(
  (db.prepare("SELECT sum(pgsize) AS b FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'code_versions')").get() as { b: number }).b,
);
const changes = Number((db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n);
console.log(
  `history storage: ${(versionBytes / changes).toFixed(0)} bytes per change (${changes} changes); file ${(statSync(join(dir, 'bench.db')).size / 1e6).toFixed(0)} MB`,
);

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
async function per(label: string, n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push((performance.now() - t) * 1000);
  }
  const m = median(times);
  console.log(`${label}: p50 ${m.toFixed(1)} µs`);
  return m;
}
const random = (i: number) => code((i * 7919) % CODES);
const upper = (i: number) => code(i % (1 + FANOUT + FANOUT * FANOUT)); // the top three levels: large subtrees
const N = 2_000;
const list = await per('list page (50, random depth)', N, (i) => store.pageCodes({ after: `tree:${random(i)}`, limit: 50, system: null, status: null }));
const get = await per('get by id', N, (i) => store.codeJson(`tree:${random(i)}`));
const nav = store.navigation;
const children = await per('children page (50), top three levels', N, (i) =>
  nav.pageChildren({ id: `tree:${upper(i)}`, after: null, limit: 50, status: null }),
);
const descendants = await per('descendants page (50), top three levels', N, (i) =>
  nav.pageDescendants({ id: `tree:${upper(i)}`, after: null, limit: 50, status: null }),
);
const ancestors = await per('ancestors page (50), random codes', N, (i) =>
  nav.pageAncestors({ id: `tree:${random(i)}`, after: null, limit: 50, status: null }),
);
const asOfGet = await per('as-of get (2024-09-01)', N, (i) => nav.codeJsonAsOf(`tree:${random(i)}`, '2024-09-01'));
const asOfList = await per('as-of list page (50, 2024-09-01)', N, (i) =>
  nav.pageCodesAsOf({ asOf: '2024-09-01', after: `tree:${random(i)}`, limit: 50, system: null, status: null }),
);
const ids = (i: number) => Array.from({ length: 200 }, (_, k) => `tree:${random(i * 200 + k)}`);
const batch = await per('batch of 200', 500, (i) => nav.codesBatch(ids(i), null));
const batchAsOf = await per('batch of 200, as of 2024-09-01', 500, (i) => nav.codesBatch(ids(i), '2024-09-01'));
console.log(
  `ratios: children ÷ list ${(children / list).toFixed(2)}, descendants ÷ list ${(descendants / list).toFixed(2)}, ancestors ÷ get ${(ancestors / get).toFixed(2)}, as-of get ÷ get ${(asOfGet / get).toFixed(2)}, as-of list ÷ list ${(asOfList / list).toFixed(2)}`,
);
console.log(
  `ids per second in the store: single gets ${(1e6 / get).toFixed(0)}, batches ${(200e6 / batch).toFixed(0)} (${((get * 200) / batch).toFixed(1)}×), as-of batches ${(200e6 / batchAsOf).toFixed(0)}`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
