/**
 * Upgrading a database of the version before search (schema 4): migration 5
 * builds the search index, the systems and the releases from what is stored,
 * and gives the new endpoints to plans that had every endpoint, on both backends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../src/store/store.ts';
import { oldCodes, oldPlans, type OldRows, withOldPostgres, withOldSqlite } from '../helpers/old-schema.ts';
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
  // Words of four letters or more are read through the terms the upgrade listed from the word index (SQLite).
  assert.deepEqual(await searchAll(store, 'diab'), ['icd:E11']);
  assert.deepEqual(await searchAll(store, 'mellitus islands'), []);
  assert.deepEqual(await searchAll(store, 'islands'), ['iso:STP']);
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

const OLD: OldRows = [
  ['codes', oldCodes(CODES)],
  ['changes', CHANGES.map((c) => ({ id: c.id, code_id: c.codeId, system: c.system, type: c.type, effective_date: c.effectiveDate, json: c.json }))],
  ['plans', oldPlans(PLANS)],
];

test('SQLite: a database of schema 4 is upgraded with its search index, systems, releases and plans', async () => {
  await withOldSqlite(4, OLD, assertUpgraded);
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('codebook_upgrade');
  });
  after(() => db?.drop());

  test('a database of schema 4 is upgraded with its search index, systems, releases and plans', async () => {
    await withOldPostgres(db, 4, OLD, assertUpgraded);
  });
});
