/**
 * A database that already holds a record the importer would not write today
 * (written by an older version, or damaged) must not wedge later imports of
 * its system: the importer repairs the record, or stops with one message
 * naming it and the fix. Written with plain SQL behind the store's back, on
 * both backends: their import transactions differ.
 */
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import type { CodeContent, CodeRecord } from '../../src/domain/records.ts';
import { contentHash } from '../../src/services/import/diff.ts';
import { ImportRejected } from '../../src/services/import/importer.ts';
import { importBackends, type BackendFixture, type RawCodeRow } from './import-backends.ts';

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

const SNAPSHOT = { mode: 'snapshot' as const, release: 'r2', effectiveDate: '2024-02-01' };

/** The row an import of `{"code":"X\ud800","display":"Bad"}` left before unpaired surrogates were refused. */
function rowLeftByAnUnpairedSurrogate(): RawCodeRow {
  const content: CodeContent = { display: 'Bad', definition: null, status: 'active', parents: [], attributes: {} };
  const record: CodeRecord = {
    object: 'code',
    id: 't:X\ud800',
    system: 't',
    code: 'X\ud800',
    ...content,
    release: 'r1',
    effective_from: '2024-01-01',
    updated_at: '2024-01-01T00:00:00.000Z',
  };
  // The drivers encode the key's unpaired surrogate as U+FFFD; JSON.stringify keeps it as the escape \ud800.
  return { id: 't:X\uFFFD', system: 't', code: 'X\uFFFD', status: 'active', hash: contentHash(content), json: JSON.stringify(record) };
}

function storedRecord(content: Partial<CodeRecord> & { id: string; code: string }): RawCodeRow {
  const record = {
    object: 'code',
    system: 't',
    display: 'Stored',
    definition: null,
    status: 'active',
    parents: [],
    attributes: {},
    release: 'r1',
    effective_from: '2024-01-01',
    updated_at: '2024-01-01T00:00:00.000Z',
    ...content,
  };
  return { id: content.id, system: 't', code: content.code, status: record.status, hash: 'stale', json: JSON.stringify(record) };
}

for (const backend of backends) {
  describe(`a damaged record on ${backend.name}`, { skip: backend.skip }, () => {
    let t: BackendFixture;
    beforeEach(async () => {
      t = await backend.open();
      await t.importText('code,display\nA,Alpha\nB,Beta\n', { mode: 'snapshot' });
    });
    afterEach(() => t.close());

    test('a key stored with U+FFFD whose JSON kept \\ud800: a snapshot without it retires it and writes it well-formed', async () => {
      await t.writeRawCode(rowLeftByAnUnpairedSurrogate());
      assert.equal(await t.rawCodeHex('t:X\uFFFD'), '58EFBFBD', 'the key holds U+FFFD, as the drivers stored it');

      // Before: "unexpected error: Cannot convert undefined or null to object", on every snapshot of the system.
      const summary = await t.importText('code,display\nA,Alpha\nB,Beta\n', SNAPSHOT);
      assert.deepEqual([summary.retired, summary.unchanged, summary.repaired], [1, 2, 0]);
      const retired = (await t.changes()).at(-1)!;
      assert.deepEqual([retired.code_id, retired.type, retired.before, retired.after], ['t:X\uFFFD', 'retired', { status: 'active' }, { status: 'retired' }]);
      const record = (await t.code('t:X\uFFFD'))!;
      assert.deepEqual([record.id, record.code, record.status], ['t:X\uFFFD', 'X\uFFFD', 'retired']);
      assert.ok(JSON.stringify(record).isWellFormed());

      const again = await t.importText('code,display\nA,Alpha\nB,Beta\n', { ...SNAPSHOT, release: 'r3', effectiveDate: '2024-03-01' });
      assert.deepEqual([again.retired, again.unchanged, again.firstChangeId], [0, 2, null], 'and the system imports as usual after');
    });

    test('the same record in a snapshot that keeps it: rewritten well-formed, no change recorded', async () => {
      await t.writeRawCode(rowLeftByAnUnpairedSurrogate());
      const changesBefore = (await t.changes()).length;
      const summary = await t.importText('code,display\nA,Alpha\nB,Beta\nX\uFFFD,Bad\n', SNAPSHOT);
      assert.deepEqual([summary.added, summary.revised, summary.retired, summary.unchanged, summary.repaired], [0, 0, 0, 2, 1]);
      assert.equal((await t.changes()).length, changesBefore, 'a repair is not a change');
      const json = await t.store.codeJson('t:X\uFFFD');
      assert.ok(json!.isWellFormed() && !json!.includes('\\ud800'), json!);
      assert.deepEqual(JSON.parse(json!).id, 't:X\uFFFD');
      assert.equal(JSON.parse(json!).release, 'r1', 'it keeps the release that last changed it');
      const again = await t.importText('code,display\nA,Alpha\nB,Beta\nX\uFFFD,Bad\n', { ...SNAPSHOT, release: 'r3' });
      assert.deepEqual([again.unchanged, again.repaired], [3, 0], 'once repaired, it is unchanged');
    });

    test("a JSON that names another code than its row: the row's key wins, the change goes to it", async () => {
      await t.writeRawCode(storedRecord({ id: 't:K', code: 'Other' }));
      const summary = await t.importText('code,display\nA,Alpha\nB,Beta\nK,Kappa\n', SNAPSHOT);
      assert.equal(summary.revised, 1);
      const change = (await t.changes()).at(-1)!;
      assert.deepEqual([change.code_id, change.fields, change.after], ['t:K', ['display'], { display: 'Kappa' }]);
      const record = (await t.code('t:K'))!;
      assert.deepEqual([record.id, record.code, record.display], ['t:K', 'K', 'Kappa']);
    });

    test('a status column that says active where the record is retired: repaired, not retired twice', async () => {
      await t.writeRawCode({ ...storedRecord({ id: 't:R', code: 'R', status: 'retired' }), status: 'active' });
      const summary = await t.importText('code,display\nA,Alpha\nB,Beta\n', SNAPSHOT);
      assert.deepEqual([summary.retired, summary.repaired, summary.firstChangeId], [0, 1, null]);
      const page = await t.store.pageCodes({ after: null, limit: 10, system: 't', status: 'retired' });
      assert.deepEqual(page.count, 1, 'the status column agrees with the record again');
    });

    test('a record whose JSON cannot be read: one message naming it and the fix, nothing applied', async () => {
      await t.writeRawCode({ id: 't:D', system: 't', code: 'D', status: 'active', hash: 'stale', json: '{"object":"code","id":' });
      const before = await t.changes();
      const error = await t.importText('code,display\nA,Alpha\nB,Beta\n', SNAPSHOT).then(
        () => assert.fail('the import was accepted'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ImportRejected, String(error));
      assert.match(
        error.message,
        /^the stored record t:D is damaged \(its JSON does not parse: .*\); nothing was imported\. Restore the database from a backup taken before the record was damaged\.$/,
      );
      assert.deepEqual(await t.changes(), before);
      // A delta that does not touch it still imports.
      assert.equal((await t.importText('code,display\nC,Gamma\n', { release: 'r3', effectiveDate: '2024-03-01' })).added, 1);
    });
  });
}
