/**
 * Upgrading a database of the version before search (schema 4): migration 5
 * builds the search index, the systems and the releases from what is stored,
 * and gives the new endpoints to plans that had every endpoint, on both backends.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/store.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { changeRow } from './suite-fixtures.ts';
import { searchAll, textRow } from './suite-search.ts';

const CODES = [
  textRow('iso:STP', 'São Tomé and Príncipe', 'Islands.'),
  textRow('iso:OLD', 'Old money', null, 'retired'),
  textRow('icd:E11', 'Diabetes mellitus', null),
];
const CHANGES = [
  changeRow(1, 'iso:STP', '2024-01-01'),
  changeRow(2, 'iso:OLD', '2024-01-01'),
  changeRow(3, 'icd:E11', '2024-02-01'),
  changeRow(4, 'iso:OLD', '2024-03-01', 'retired'),
];
// changeRow records release r1 for each; the last one is of release r2.
CHANGES[3] = { ...CHANGES[3]!, json: CHANGES[3]!.json.replace('"release":"r1"', '"release":"r2"') };
const PLANS: [string, string[]][] = [
  ['everything', ['codes.list', 'codes.get', 'changes.list']],
  ['reader', ['codes.list', 'codes.get']],
];

async function assertUpgraded(store: Store): Promise<void> {
  assert.deepEqual(await searchAll(store, 'sao tome'), ['iso:STP']);
  assert.deepEqual(await searchAll(store, 'diab'), ['icd:E11']);
  const iso = await store.systems.getSystem('iso');
  assert.deepEqual(iso?.counts, { active: 1, deprecated: 0, retired: 1 });
  assert.equal(iso?.latestRelease, 'r2');
  assert.equal(iso?.latestEffectiveDate, '2024-03-01');
  const releases = await store.systems.pageReleases('iso', null, 10);
  assert.deepEqual(
    releases.map((r) => [r.id, r.effectiveDate, r.counts.added, r.counts.retired, r.firstChangeId, r.lastChangeId]),
    [
      ['r1', '2024-01-01', 2, 0, 1, 2],
      ['r2', '2024-03-01', 0, 1, 4, 4],
    ],
  );
  assert.deepEqual(
    (await store.access.getPlan('everything'))?.endpoints,
    ['codes.list', 'codes.get', 'changes.list', 'codes.search', 'systems.list', 'codes.hierarchy', 'codes.batch'],
    'later migrations (navigation) add theirs too',
  );
  assert.deepEqual((await store.access.getPlan('reader'))?.endpoints, ['codes.list', 'codes.get'], 'a plan that lacked an endpoint is left alone');
}

test('SQLite: a database of schema 4 is upgraded with its search index, systems, releases and plans', async () => {
  const dir = tempDir();
  const path = join(dir, 'codebook.db');
  try {
    const db = new DatabaseSync(path);
    for (const migration of SQLITE_MIGRATIONS.slice(0, 4)) db.exec(migration as string);
    db.exec('PRAGMA user_version = 4');
    for (const c of CODES)
      db.prepare('INSERT INTO codes (id, system, code, status, hash, json) VALUES (?, ?, ?, ?, ?, ?)').run(c.id, c.system, c.code, c.status, c.hash, c.json);
    for (const c of CHANGES)
      db.prepare('INSERT INTO changes (id, code_id, system, type, effective_date, json) VALUES (?, ?, ?, ?, ?, ?)').run(
        c.id,
        c.codeId,
        c.system,
        c.type,
        c.effectiveDate,
        c.json,
      );
    for (const [name, endpoints] of PLANS) db.prepare('INSERT INTO plans VALUES (?, ?, 60, NULL, 1)').run(name, JSON.stringify(endpoints));
    db.close();
    const store = new SqliteStore({ path });
    try {
      await assertUpgraded(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('codebook_upgrade');
  });
  after(() => db?.drop());

  test('a database of schema 4 is upgraded with its search index, systems, releases and plans', async () => {
    const schema = await db.createSchema();
    await migratePostgres({ url: db.url, schema }, POSTGRES_MIGRATIONS.slice(0, 4));
    const client = new pg.Client({ connectionString: db.url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      for (const c of CODES)
        await client.query('INSERT INTO codes (id, system, code, status, hash, json) VALUES ($1, $2, $3, $4, $5, $6)', [
          c.id,
          c.system,
          c.code,
          c.status,
          c.hash,
          c.json,
        ]);
      for (const c of CHANGES)
        await client.query('INSERT INTO changes (id, code_id, system, type, effective_date, json) VALUES ($1, $2, $3, $4, $5, $6)', [
          c.id,
          c.codeId,
          c.system,
          c.type,
          c.effectiveDate,
          c.json,
        ]);
      for (const [name, endpoints] of PLANS) await client.query('INSERT INTO plans VALUES ($1, $2, 60, NULL, true)', [name, JSON.stringify(endpoints)]);
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open({ url: db.url, schema, max: 2 });
    try {
      await assertUpgraded(store);
    } finally {
      await store.close();
    }
  });
});
