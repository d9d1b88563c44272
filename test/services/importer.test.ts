/** runImport: what each import records (changes, code records, summary). */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { compareBinary } from '../../src/services/import/diff.ts';
import { ImportRejected } from '../../src/services/import/importer.ts';
import { changeShape, openImportFixture, type ImportFixture } from './import-helpers.ts';

let t: ImportFixture;
beforeEach(() => {
  t = openImportFixture();
});
afterEach(() => t.close());

const FIRST = 'code,display,definition,status,parents,numeric\nA,Alpha,First letter.,active,,001\nA1,Alpha one,,active,A,\nB,Beta,,active,A,002\n';

describe('a first import', () => {
  test('adds every row: code records and "added" changes carry the full content', async () => {
    const now = new Date('2024-02-03T04:05:06.000Z');
    const summary = await t.importText(FIRST, { release: '2024-A', effectiveDate: '2024-01-15' }, { now: () => now });
    assert.deepEqual(
      { ...summary, durationMs: 0 },
      {
        system: 't',
        release: '2024-A',
        effectiveDate: '2024-01-15',
        mode: 'delta',
        rows: 3,
        added: 3,
        revised: 0,
        retired: 0,
        reactivated: 0,
        repaired: 0,
        unchanged: 0,
        unfilteredFeedAt: null,
        firstChangeId: 1,
        lastChangeId: 3,
        durationMs: 0,
      },
    );
    assert.deepEqual(await t.code('t:A1'), {
      object: 'code',
      id: 't:A1',
      system: 't',
      code: 'A1',
      display: 'Alpha one',
      definition: null,
      status: 'active',
      parents: ['t:A'],
      attributes: { numeric: null },
      release: '2024-A',
      effective_from: '2024-01-15',
      updated_at: '2024-02-03T04:05:06.000Z',
    });
    const changes = await t.changes();
    assert.deepEqual(
      changes.map((c) => [c.id, c.code_id, c.type, c.effective_date, c.release, c.recorded_at]),
      [
        [1, 't:A', 'added', '2024-01-15', '2024-A', '2024-02-03T04:05:06.000Z'],
        [2, 't:A1', 'added', '2024-01-15', '2024-A', '2024-02-03T04:05:06.000Z'],
        [3, 't:B', 'added', '2024-01-15', '2024-A', '2024-02-03T04:05:06.000Z'],
      ],
    );
    assert.deepEqual(changeShape(changes[0]!), {
      code_id: 't:A',
      type: 'added',
      fields: [],
      before: null,
      after: { display: 'Alpha', definition: 'First letter.', status: 'active', parents: [], attributes: { numeric: '001' } },
    });
    assert.equal(changes[0]!.object, 'change');
  });
});

describe('a later import', () => {
  beforeEach(async () => {
    await t.importText(FIRST);
  });

  test('records a revision with exactly the changed fields, their old and new values', async () => {
    const summary = await t.importText('code,display,numeric\nA,Alpha (new),001\nB,Beta,003\n', { release: 'r2', effectiveDate: '2024-02-01' });
    assert.deepEqual([summary.revised, summary.unchanged, summary.added], [2, 0, 0]);
    // A's definition was not in this delta file, so it is cleared too: a row states the whole code.
    const byCode = Object.fromEntries((await t.changes()).slice(3).map((c) => [c.code_id, changeShape(c)]));
    assert.deepEqual(byCode['t:A'], {
      code_id: 't:A',
      type: 'revised',
      fields: ['display', 'definition'],
      before: { display: 'Alpha', definition: 'First letter.' },
      after: { display: 'Alpha (new)', definition: null },
    });
    assert.deepEqual(byCode['t:B'], {
      code_id: 't:B',
      type: 'revised',
      fields: ['parents', 'attributes'],
      before: { parents: ['t:A'], attributes: { numeric: '002' } },
      after: { parents: [], attributes: { numeric: '003' } },
    });
    const a = await t.code('t:A');
    assert.equal(a!.effective_from, '2024-01-01', 'effective_from stays the date the code was added');
    assert.equal(a!.release, 'r2', 'release names the import that last changed it');
  });

  test('records retirement, deprecation and reactivation as their own change types', async () => {
    await t.importText('code,display,status\nA,Alpha,deprecated\nB,Beta,retired\n', { effectiveDate: '2024-02-01' });
    await t.importText('code,display,status\nB,Beta again,active\n', { effectiveDate: '2024-03-01' });
    const changes = (await t.changes()).slice(3).map(changeShape);
    assert.deepEqual(changes, [
      {
        code_id: 't:A',
        type: 'revised',
        fields: ['definition', 'status', 'attributes'],
        before: { definition: 'First letter.', status: 'active', attributes: { numeric: '001' } },
        after: { definition: null, status: 'deprecated', attributes: {} },
      },
      {
        code_id: 't:B',
        type: 'retired',
        fields: ['status', 'parents', 'attributes'],
        before: { status: 'active', parents: ['t:A'], attributes: { numeric: '002' } },
        after: { status: 'retired', parents: [], attributes: {} },
      },
      {
        code_id: 't:B',
        type: 'reactivated',
        fields: ['display', 'status'],
        before: { display: 'Beta', status: 'retired' },
        after: { display: 'Beta again', status: 'active' },
      },
    ]);
    assert.equal((await t.code('t:B'))!.status, 'active');
  });

  test('a snapshot retires the codes missing from it; a delta leaves them alone', async () => {
    const delta = await t.importText('code,display,definition,status,parents,numeric\nA,Alpha,First letter.,active,,001\n', {
      mode: 'delta',
      effectiveDate: '2024-02-01',
    });
    assert.deepEqual([delta.retired, delta.unchanged], [0, 1]);
    assert.equal((await t.code('t:B'))!.status, 'active');

    // Two of three is more than half: the snapshot says it is meant.
    const snapshot = await t.importText('code,display,definition,status,parents,numeric\nA,Alpha,First letter.,active,,001\n', {
      mode: 'snapshot',
      effectiveDate: '2024-03-01',
      allowMassRetire: true,
    });
    assert.deepEqual([snapshot.retired, snapshot.unchanged, snapshot.firstChangeId, snapshot.lastChangeId], [2, 1, 4, 5]);
    const retired = (await t.changes()).slice(3);
    assert.deepEqual(retired.map(changeShape), [
      { code_id: 't:A1', type: 'retired', fields: ['status'], before: { status: 'active' }, after: { status: 'retired' } },
      { code_id: 't:B', type: 'retired', fields: ['status'], before: { status: 'active' }, after: { status: 'retired' } },
    ]);
    const b = await t.code('t:B');
    assert.deepEqual([b!.status, b!.display, b!.parents, b!.effective_from], ['retired', 'Beta', ['t:A'], '2024-01-01'], 'a retired code keeps its content');

    const again = await t.importText('code,display,definition,status,parents,numeric\nA,Alpha,First letter.,active,,001\n', {
      mode: 'snapshot',
      effectiveDate: '2024-04-01',
    });
    assert.equal(again.retired, 0, 'a code already retired is not retired again');
  });

  test('importing the same file again records no change, even with an older effective date', async () => {
    const before = await t.snapshot();
    for (const effectiveDate of ['2024-01-01', '2023-06-01', '2025-01-01']) {
      const summary = await t.importText(FIRST, { effectiveDate, release: `again-${effectiveDate}`, mode: 'snapshot' });
      assert.deepEqual([summary.added, summary.revised, summary.retired, summary.reactivated, summary.unchanged], [0, 0, 0, 0, 3]);
      assert.deepEqual([summary.firstChangeId, summary.lastChangeId], [null, null]);
    }
    assert.equal(await t.snapshot(), before, 'neither codes nor changes were touched');
  });

  test('a back-dated import with changes is refused unless allowBackdated', async () => {
    await t.importText('code,display\nC,Gamma\n', { effectiveDate: '2024-06-01' });
    const before = await t.snapshot();
    await assert.rejects(t.importText('code,display\nD,Delta\n', { effectiveDate: '2024-05-31' }), (error: unknown) => {
      assert.ok(error instanceof ImportRejected);
      assert.equal(
        error.message,
        'effectiveDate 2024-05-31 is before the latest effective date of system t (2024-06-01): clients following its changes from 2024-06-01 on would never see these 1 change(s). Pass allowBackdated to record them anyway.',
      );
      return true;
    });
    assert.equal(await t.snapshot(), before);

    const sameDay = await t.importText('code,display\nE,Epsilon\n', { effectiveDate: '2024-06-01' });
    assert.equal(sameDay.added, 1, 'the latest date itself is not back-dated');
    const allowed = await t.importText('code,display\nD,Delta\n', { effectiveDate: '2024-05-31', allowBackdated: true });
    assert.equal(allowed.added, 1);
    const feed = (await t.changes()).map((c) => `${c.effective_date} ${c.id} ${c.code_id}`);
    assert.deepEqual(feed.slice(-3), ['2024-05-31 6 t:D', '2024-06-01 4 t:C', '2024-06-01 5 t:E'], 'the feed sorts by date, then id');
  });
});

describe('guards of a whole system', () => {
  const codes = (n: number, status: string) => Array.from({ length: n }, (_, i) => `K${i},Code ${i},${status}`);

  test("back-dating is judged per system: a new system may start years before another system's latest change", async () => {
    await t.importText('code,display\nA,Alpha\n', { system: 'late', effectiveDate: '2026-01-01' });
    const first = await t.importText('code,display\nB,Beta\n', { system: 'early', effectiveDate: '2019-01-01' });
    assert.deepEqual([first.added, first.unfilteredFeedAt], [1, '2026-01-01'], 'the summary says which unfiltered readers will not see it');
    const next = await t.importText('code,display\nC,Gamma\n', { system: 'early', effectiveDate: '2020-01-01' });
    assert.equal(next.added, 1, 'and goes on from its own latest date');
    await assert.rejects(
      t.importText('code,display\nD,Delta\n', { system: 'early', effectiveDate: '2019-06-01' }),
      /before the latest effective date of system early \(2020-01-01\)/,
    );
    await assert.rejects(
      t.importText('code,display\nE,Epsilon\n', { system: 'late', effectiveDate: '2025-12-31' }),
      /before the latest effective date of system late \(2026-01-01\)/,
    );
  });

  test('a snapshot that would retire more than half of the codes in use is refused, saying how many; the flag allows it', async () => {
    const file = (rows: string[]) => `code,display,status\n${rows.map((row) => `${row}\n`).join('')}`;
    await t.importText(file([...codes(20, 'active'), 'Old,Old code,retired', 'Dep,Deprecated,deprecated']), { system: 's', mode: 'snapshot' });
    const before = await t.snapshot();
    const snapshot = { system: 's', mode: 'snapshot' as const, release: 'r2', effectiveDate: '2024-02-01' };
    const refusal = (text: string) =>
      t.importText(text, snapshot).then(
        () => assert.fail('the snapshot was accepted'),
        (e: unknown) => (assert.ok(e instanceof ImportRejected), e.message),
      );
    const message = (n: number) =>
      `this snapshot would retire ${n} of the 21 codes of system s not yet retired (more than half): is the file complete? Pass allowMassRetire to retire them anyway.`;
    assert.equal(await refusal('code,display\n'), message(21), 'a header with no rows');
    assert.equal(await refusal(file(codes(2, 'active'))), message(19), 'a tenth of the rows');
    assert.equal(await refusal(file([...codes(20, 'retired'), 'Dep,Deprecated,deprecated'])), message(20), 'rows that retire codes count as well');
    assert.equal(await t.snapshot(), before, 'nothing was applied');

    const half = await t.importText(file(codes(11, 'active')), snapshot);
    assert.equal(half.retired, 10, '10 of 21 is not more than half');
    const delta = await t.importText(file(codes(11, 'retired')), { system: 's', release: 'r3', effectiveDate: '2024-03-01' });
    assert.equal(delta.retired, 11, 'a delta says what it retires, row by row: it is not held back');
    await t.importText(file(codes(4, 'active')), { system: 's', release: 'r4', effectiveDate: '2024-04-01' });
    const allowed = await t.importText('code,display\nNew,New code\n', { ...snapshot, release: 'r5', effectiveDate: '2024-05-01', allowMassRetire: true });
    assert.deepEqual([allowed.added, allowed.retired], [1, 4]);
  });
});

describe('change ids and atomicity', () => {
  test('change ids increase in commit order across imports, in code order within one', async () => {
    const one = await t.importText('code,display\nb,x\nB,x\na,x\n');
    const two = await t.importText('code,display\nb,y\nc,x\n', { effectiveDate: '2024-02-01' });
    assert.deepEqual([one.firstChangeId, one.lastChangeId, two.firstChangeId, two.lastChangeId], [1, 3, 4, 5]);
    const changes = await t.changes();
    assert.deepEqual(
      changes.map((c) => [c.id, c.code_id]),
      [
        [1, 't:B'],
        [2, 't:a'],
        [3, 't:b'],
        [4, 't:b'],
        [5, 't:c'],
      ],
    );
  });

  test('within one import, change ids follow the byte order codes are paged in, non-ASCII included', async () => {
    await t.importText('code,display\n😀,x\n\uFFFD,x\né,x\nz,x\n\uE000,x\nZ,x\n');
    const changes = await t.changes();
    const pagedCodes = (await t.codes()).map((c) => c.id);
    assert.deepEqual(pagedCodes, ['t:Z', 't:z', 't:é', 't:\uE000', 't:\uFFFD', 't:😀']);
    assert.deepEqual(
      changes.map((c) => c.code_id),
      pagedCodes,
      'ids in the change feed run in the same order as the codes',
    );
  });

  test('property: the importer orders codes exactly as UTF-8 bytes compare', () => {
    const unit = fc.constantFrom('a', 'Z', 'é', '\uE000', '\uFFFD', '😀', '𝄞', '中', '\u0080');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 5 }), fc.string({ unit, maxLength: 5 }), (a, b) => {
        assert.equal(Math.sign(compareBinary(a, b)), Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
  });

  test('concurrent imports each get a contiguous run of ids, and recorded_at follows commit order', async () => {
    const imports = [0, 1, 2, 3].map((i) => t.importText(`code,display\nK${i}a,x\nK${i}b,x\nK${i}c,x\n`, { system: `s${i}` }));
    const summaries = await Promise.all(imports);
    const runs = summaries.map((s) => [s.firstChangeId!, s.lastChangeId!]).sort((x, y) => x[0]! - y[0]!);
    assert.deepEqual(runs, [
      [1, 3],
      [4, 6],
      [7, 9],
      [10, 12],
    ]);
    const changes = await t.changes();
    for (let i = 1; i < changes.length; i++) assert.ok(changes[i - 1]!.recorded_at <= changes[i]!.recorded_at, 'recorded_at never goes back as ids grow');
  });

  test('the record time is taken once the import holds the lock, after an earlier import has committed', async () => {
    const events: string[] = [];
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const first = t.store.withImport(async () => {
      holding();
      await new Promise((resolve) => setTimeout(resolve, 50));
      events.push('first import done');
    });
    await holds;
    await t.importText('code,display\nA,x\n', {}, { now: () => (events.push('clock read'), new Date()) });
    await first;
    assert.deepEqual(events, ['first import done', 'clock read']);
  });

  test('an import failing mid-write leaves the database unchanged', async () => {
    await t.importText(FIRST);
    const before = await t.snapshot();
    const failAfterWriting = (phase: string, done: number, total: number) => {
      if (phase === 'write' && done === total) throw new Error('disk full (simulated after the rows were written)');
    };
    await assert.rejects(
      t.importText(
        'code,display\nA,Changed\nZ,New\n',
        { mode: 'snapshot', effectiveDate: '2024-02-01', allowMassRetire: true },
        { onProgress: failAfterWriting },
      ),
      /disk full/,
    );
    assert.equal(await t.snapshot(), before);
    const retry = await t.importText('code,display\nA,Changed\nZ,New\n', { mode: 'snapshot', effectiveDate: '2024-02-01', allowMassRetire: true });
    assert.deepEqual([retry.firstChangeId, retry.added, retry.revised, retry.retired], [4, 1, 1, 2], 'ids of the failed import are not skipped');
  });
});
