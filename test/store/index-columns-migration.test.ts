/**
 * Upgrading a database whose roots and release indexes were expressions over
 * the records' JSON (SQLite schema 16, PostgreSQL schema 8): SQLite's
 * migration 17 and PostgreSQL's 9 move them to columns (codes.root,
 * changes.release), and the roots pages and the release filter answer as
 * before, a damaged record still no root and in no release. Writes after the
 * upgrade keep the columns.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import type { CodeRecord } from '../../src/domain/records.ts';
import type { Store } from '../../src/store/store.ts';
import { oldCodes, type OldRows, withOldPostgres, withOldSqlite } from '../helpers/old-schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { changeRow, codeRow, NO_CHANGE_FILTERS, pageAllChanges, writeChanges, writeCodes } from './suite-fixtures.ts';

/** A code row whose record has these parents (and so is a root or not). */
function withParents(id: string, parents: string[]) {
  const row = codeRow(id);
  const record = JSON.parse(row.json) as CodeRecord;
  return { ...row, json: JSON.stringify({ ...record, parents }), root: parents.length === 0 };
}

/** A change row of this release. */
function ofRelease(id: number, codeId: string, effectiveDate: string, release: string) {
  const row = changeRow(id, codeId, effectiveDate);
  return { ...row, release, json: JSON.stringify({ ...JSON.parse(row.json), release }) };
}

const CODES = [
  withParents('m:A', []),
  withParents('m:B', ['m:A']),
  withParents('m:C', []),
  // A record that does not parse: no root, as the old index had it.
  { ...withParents('m:D', []), json: '{"object":"code","parents":[' },
  // Records that parse with no parents list, or one that is not an array: roots, as the old index had them.
  { ...withParents('m:E', []), json: '{"object":"code","id":"m:E"}' },
  { ...withParents('m:F', []), json: '{"object":"code","id":"m:F","parents":"m:A"}' },
  withParents('n:X', []),
];
const CHANGES = [
  ofRelease(1, 'm:A', '2024-01-01', 'r1'),
  ofRelease(2, 'm:B', '2024-01-01', 'r1'),
  ofRelease(3, 'n:X', '2024-01-01', 'r1'),
  ofRelease(4, 'm:C', '2024-02-01', 'r2'),
  // Damaged: in no release.
  { ...ofRelease(5, 'm:C', '2024-03-01', 'r2'), json: '{"release":"r2"' },
  // A release that is not text: the old expression gave a number, which no release asked for equalled.
  { ...ofRelease(6, 'm:C', '2024-03-01', 'r2'), json: '{"id":6,"effective_date":"2024-03-01","release":7}' },
];
const OLD: OldRows = [
  ['codes', oldCodes(CODES)],
  ['changes', CHANGES.map((c) => ({ id: c.id, code_id: c.codeId, system: c.system, type: c.type, effective_date: c.effectiveDate, json: c.json }))],
];

async function roots(store: Store, system: string): Promise<string[]> {
  const page = await store.navigation.pageRoots({ system, after: null, limit: 50, status: null });
  return page.count === 0 ? [] : (JSON.parse(`[${page.json.toString('utf8')}]`) as CodeRecord[]).map((r) => r.id);
}

async function ofReleaseIds(store: Store, release: string, system: string | null = null): Promise<string[]> {
  return (await pageAllChanges(store, { ...NO_CHANGE_FILTERS, system, release }, 1)).keys;
}

/** The columns as the migration filled them (root as 1 or true, else null), then what the reads and later writes answer. */
async function assertUpgraded(
  store: Store,
  columns: { root: [string, unknown][]; release: [number, unknown][] },
  rootValue: unknown,
  numberRelease: string | null,
): Promise<void> {
  assert.deepEqual(columns.root, [
    ['m:A', rootValue],
    ['m:B', null],
    ['m:C', rootValue],
    ['m:D', null],
    ['m:E', rootValue],
    ['m:F', rootValue],
    ['n:X', rootValue],
  ]);
  assert.deepEqual(columns.release, [
    [1, 'r1'],
    [2, 'r1'],
    [3, 'r1'],
    [4, 'r2'],
    [5, null],
    [6, numberRelease],
  ]);

  assert.deepEqual(await roots(store, 'm'), ['m:A', 'm:C', 'm:E', 'm:F'], 'a child and a record that does not parse are no roots');
  assert.deepEqual(await roots(store, 'n'), ['n:X']);
  assert.deepEqual(await ofReleaseIds(store, 'r1'), ['2024-01-01#1', '2024-01-01#2', '2024-01-01#3']);
  assert.deepEqual(await ofReleaseIds(store, 'r1', 'm'), ['2024-01-01#1', '2024-01-01#2']);
  assert.deepEqual(await ofReleaseIds(store, 'r2'), ['2024-02-01#4'], 'a change that does not parse is in no release');
  // As each backend's expression had it: SQLite's gave the number, which no text equalled; PostgreSQL's its text.
  assert.deepEqual(await ofReleaseIds(store, '7'), numberRelease === null ? [] : ['2024-03-01#6']);

  // Written after the upgrade: a root gains a parent, a child loses its own, a change of a new release.
  await writeCodes(store, [withParents('m:A', ['m:C']), withParents('m:B', [])]);
  await writeChanges(store, [ofRelease(7, 'm:B', '2024-04-01', 'r3')]);
  assert.deepEqual(await roots(store, 'm'), ['m:B', 'm:C', 'm:E', 'm:F']);
  assert.deepEqual(await ofReleaseIds(store, 'r3'), ['2024-04-01#7']);
}

test('SQLite: a database of schema 16 gets its roots and release indexes on columns, and answers as before', async () => {
  await withOldSqlite(16, OLD, async (store) => {
    const db = new DatabaseSync(store.path, { readOnly: true });
    const index = (name: string) => (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
    assert.match(index('codes_roots'), /WHERE root = 1$/);
    assert.match(index('changes_by_release'), /\(release, effective_date, id\)$/);
    const rows = (sql: string) =>
      db
        .prepare(sql)
        .all()
        .map((r) => Object.values(r));
    const columns = {
      root: rows('SELECT id, root FROM codes ORDER BY id') as [string, unknown][],
      release: rows('SELECT id, release FROM changes ORDER BY id') as [number, unknown][],
    };
    db.close();
    await assertUpgraded(store, columns, 1, null);
  });
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('codebook_indexcols');
  });
  after(() => database?.drop());

  test('PostgreSQL: a database of schema 8 gets the same columns, and answers as before', async () => {
    await withOldPostgres(database, 8, OLD, async (store, client) => {
      const index = async (name: string) =>
        (await client.query<{ def: string }>('SELECT indexdef AS def FROM pg_indexes WHERE indexname = $1', [name])).rows[0]!.def;
      assert.match(await index('codes_roots'), /WHERE root$/);
      assert.match(await index('changes_by_release'), /\(release, effective_date, id\)$/);
      const rows = async (sql: string) => (await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][];
      const columns = {
        root: (await rows('SELECT id, root FROM codes ORDER BY id COLLATE "C"')) as [string, unknown][],
        release: (await rows('SELECT id::int, release FROM changes ORDER BY id')) as [number, unknown][],
      };
      await assertUpgraded(store, columns, true, '7');
    });
  });
});
