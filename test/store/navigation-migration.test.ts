/**
 * Migration 5 on a database that already holds codes and changes (written
 * before hierarchy and as-of reads existed): it builds the edges, closure and
 * versions from them, and the reads answer as they do where imports wrote
 * them. Also the plan upgrade: a plan that had every endpoint gets the new ones.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { runImport } from '../../src/services/import/importer.ts';
import type { Store } from '../../src/store/store.ts';
import { openTempSqliteStore, toCsv } from '../helpers/context.ts';
import { oldPlans, withOldPostgres, withOldSqlite, type OldRows } from '../helpers/old-schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

const BEFORE = 4;
const DATES = ['2023-12-31', '2024-01-01', '2024-01-15', '2024-02-01', '2024-03-01', '2024-12-31'];
const CODES = ['R', 'A', 'B', 'C', 'D', 'X'].map((c) => `m:${c}`);

/** A history with a hierarchy (D under A and B), revisions, a retirement and a back-dated revision. */
async function fill(store: Store, dir: string): Promise<void> {
  let n = 0;
  const load = async (rows: Record<string, string>[], release: string, effectiveDate: string, mode: 'snapshot' | 'delta') => {
    const file = join(dir, `m-${++n}.csv`);
    writeFileSync(file, toCsv(rows));
    await runImport(store, { file, format: 'csv', system: 'm', release, effectiveDate, mode, allowBackdated: true });
  };
  await load(
    [
      { code: 'R', display: 'Root', parents: '' },
      { code: 'A', display: 'A', parents: 'R' },
      { code: 'B', display: 'B', parents: 'R' },
      { code: 'C', display: 'C', parents: 'A' },
      { code: 'D', display: 'D', parents: 'A;B' },
    ],
    'r1',
    '2024-01-01',
    'snapshot',
  );
  await load(
    [
      { code: 'C', display: 'C, revised', parents: 'B' },
      { code: 'X', display: 'X', parents: 'D' },
    ],
    'r2',
    '2024-03-01',
    'delta',
  );
  await load([{ code: 'A', display: 'A, back-dated', parents: 'R' }], 'r3', '2024-02-01', 'delta');
}

/** Every navigation read of the fixture, as one comparable value. */
async function readAll(store: Store): Promise<unknown> {
  const nav = store.navigation;
  const out: Record<string, unknown> = {};
  for (const id of CODES) {
    out[`${id} children`] = (await nav.pageChildren({ id, after: null, limit: 50, status: null })).json;
    out[`${id} descendants`] = (await nav.pageDescendants({ id, after: null, limit: 50, status: null })).json;
    out[`${id} ancestors`] = (await nav.pageAncestors({ id, after: null, limit: 50, status: null })).json;
    for (const date of DATES) out[`${id} ${date}`] = await nav.codeJsonAsOf(id, date);
  }
  for (const date of DATES) out[`list ${date}`] = (await nav.pageCodesAsOf({ asOf: date, after: null, limit: 50, system: null, status: null })).json;
  out.roots = (await nav.pageRoots({ system: 'm', after: null, limit: 50, status: null })).json;
  return out;
}

const OLD_PLANS: [string, string[]][] = [
  ['everything', ['codes.list', 'codes.get', 'changes.list']],
  ['reads', ['codes.list', 'codes.get']],
];

let source: Awaited<ReturnType<typeof openTempSqliteStore>>;
let expected: unknown;
let rows: { codes: Record<string, string>[]; changes: Record<string, string | number>[] };
before(async () => {
  source = await openTempSqliteStore();
  await fill(source.store, source.dir);
  expected = await readAll(source.store);
  const db = new DatabaseSync(join(source.dir, 'codebook.db'), { readOnly: true });
  try {
    rows = {
      codes: db.prepare('SELECT id, system, code, status, hash, json FROM codes').all() as Record<string, string>[],
      changes: db.prepare('SELECT id, code_id, system, type, effective_date, json FROM changes').all() as Record<string, string | number>[],
    };
  } finally {
    db.close();
  }
});
after(() => source.cleanup());

const oldRows = (): OldRows => [
  ['codes', rows.codes],
  ['changes', rows.changes],
  ['plans', oldPlans(OLD_PLANS)],
];

async function assertMigrated(store: Store): Promise<void> {
  assert.deepEqual(await readAll(store), expected);
  assert.deepEqual((await store.access.getPlan('everything'))?.endpoints, [
    'codes.list',
    'codes.get',
    'changes.list',
    'codes.search',
    'systems.list',
    'codes.hierarchy',
    'codes.batch',
  ]);
  assert.deepEqual((await store.access.getPlan('reads'))?.endpoints, ['codes.list', 'codes.get'], 'other plans are left as they were');
}

test('SQLite: migration 8 builds hierarchy and versions from existing codes and changes, and upgrades plans that had every endpoint', async () => {
  await withOldSqlite(BEFORE, oldRows(), assertMigrated);
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('codebook_navmig');
  });
  after(() => database?.drop());

  test('PostgreSQL: migration 7 builds the same from existing codes and changes, and upgrades plans', async () => {
    await withOldPostgres(database, BEFORE, oldRows(), assertMigrated);
  });
});
