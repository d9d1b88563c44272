/**
 * Migration 5 on a database that already holds codes and changes (written
 * before hierarchy and as-of reads existed): it builds the edges, closure and
 * versions from them, and the reads answer as they do where imports wrote
 * them. Also the plan upgrade: a plan that had every endpoint gets the new ones.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runImport } from '../../src/services/import/importer.ts';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/store.ts';
import { openTempSqliteStore, tempDir, toCsv } from '../helpers/context.ts';
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

test('SQLite: migration 8 builds hierarchy and versions from existing codes and changes, and upgrades plans that had every endpoint', async () => {
  const dir = tempDir();
  const path = join(dir, 'old.db');
  const db = new DatabaseSync(path);
  for (const migration of SQLITE_MIGRATIONS.slice(0, BEFORE)) db.exec(migration as string);
  db.exec(`PRAGMA user_version = ${BEFORE}`);
  const code = db.prepare('INSERT INTO codes (id, system, code, status, hash, json) VALUES (?, ?, ?, ?, ?, ?)');
  for (const r of rows.codes) code.run(r.id!, r.system!, r.code!, r.status!, r.hash!, r.json!);
  const change = db.prepare('INSERT INTO changes (id, code_id, system, type, effective_date, json) VALUES (?, ?, ?, ?, ?, ?)');
  for (const r of rows.changes) change.run(r.id!, r.code_id!, r.system!, r.type!, r.effective_date!, r.json!);
  const plan = db.prepare('INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES (?, ?, 60, NULL, 1)');
  for (const [name, endpoints] of OLD_PLANS) plan.run(name, JSON.stringify(endpoints));
  db.close();

  const store = new SqliteStore({ path });
  try {
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
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('codebook_navmig');
  });
  after(() => database?.drop());

  test('PostgreSQL: migration 7 builds the same from existing codes and changes, and upgrades plans', async () => {
    const schema = await database.createSchema();
    await migratePostgres({ url: database.url, schema }, POSTGRES_MIGRATIONS.slice(0, BEFORE));
    const client = new pg.Client({ connectionString: database.url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      for (const r of rows.codes)
        await client.query('INSERT INTO codes (id, system, code, status, hash, json) VALUES ($1, $2, $3, $4, $5, $6)', [
          r.id,
          r.system,
          r.code,
          r.status,
          r.hash,
          r.json,
        ]);
      for (const r of rows.changes)
        await client.query('INSERT INTO changes (id, code_id, system, type, effective_date, json) VALUES ($1, $2, $3, $4, $5, $6)', [
          r.id,
          r.code_id,
          r.system,
          r.type,
          r.effective_date,
          r.json,
        ]);
      for (const [name, endpoints] of OLD_PLANS)
        await client.query('INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES ($1, $2, 60, NULL, true)', [
          name,
          JSON.stringify(endpoints),
        ]);
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open({ url: database.url, schema, max: 2 });
    try {
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
      assert.deepEqual((await store.access.getPlan('reads'))?.endpoints, ['codes.list', 'codes.get']);
    } finally {
      await store.close();
    }
  });
});
