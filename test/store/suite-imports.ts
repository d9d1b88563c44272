/** Store suite: withImport and its transaction, settings, ping. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  changeRow,
  codeRow,
  NO_CHANGE_FILTERS,
  NO_CODE_FILTERS,
  pageAllChanges,
  pageAllCodes,
  withStore,
  writeChanges,
  writeCodes,
  type OpenStore,
} from './suite-fixtures.ts';

export function importTests(open: OpenStore): void {
  test('withImport commits everything fn wrote and returns its result', async () => {
    await withStore(open, async (store) => {
      const result = await store.withImport(async (tx) => {
        await tx.writeChanges([changeRow(1, 'x:A', '2024-01-01'), changeRow(2, 'x:B', '2024-01-01')]);
        await tx.writeCodes([codeRow('x:A'), codeRow('x:B')]);
        return 'done';
      });
      assert.equal(result, 'done');
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10), ['x:A', 'x:B']);
      assert.deepEqual((await pageAllChanges(store, NO_CHANGE_FILTERS, 10)).keys, ['2024-01-01#1', '2024-01-01#2']);
    });
  });

  test('withImport is all or nothing: a throw inside fn leaves nothing written', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, [codeRow('x:A')]);
      await writeChanges(store, [changeRow(1, 'x:A', '2024-01-01')]);
      const boom = new Error('boom');
      await assert.rejects(
        store.withImport(async (tx) => {
          await tx.writeChanges([changeRow(2, 'x:B', '2024-02-01'), changeRow(3, 'x:A', '2024-02-01', 'revised')]);
          await tx.writeCodes([codeRow('x:B'), codeRow('x:A', 'deprecated', 'Changed')]);
          await sleep(5);
          throw boom;
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10), ['x:A']);
      assert.equal(await store.codeJson('x:A'), codeRow('x:A').json, 'the rewritten code is back to its committed state');
      assert.deepEqual((await pageAllChanges(store, NO_CHANGE_FILTERS, 10)).keys, ['2024-01-01#1']);
      await store.withImport(async (tx) => {
        assert.equal(await tx.nextChangeId(), 2, 'ids of a rolled-back import are free again');
        assert.equal(await tx.latestEffectiveDate('x'), '2024-01-01');
      });
    });
  });

  test('a failed write inside fn (a duplicate change id) also rolls back every earlier write', async () => {
    await withStore(open, async (store) => {
      await writeChanges(store, [changeRow(1, 'x:A', '2024-01-01')]);
      await assert.rejects(
        store.withImport(async (tx) => {
          await tx.writeCodes([codeRow('x:B')]);
          await tx.writeChanges([changeRow(2, 'x:B', '2024-01-02'), changeRow(1, 'x:C', '2024-01-02')]);
        }),
      );
      assert.equal(await store.countCodes(), 0);
      assert.deepEqual((await pageAllChanges(store, NO_CHANGE_FILTERS, 10)).keys, ['2024-01-01#1']);
    });
  });

  test('imports are serialised: a second withImport starts only after the first has committed', async () => {
    await withStore(open, async (store) => {
      const events: string[] = [];
      let holding!: () => void;
      const firstHolds = new Promise<void>((resolve) => (holding = resolve));
      const first = store.withImport(async (tx) => {
        events.push('first starts');
        holding();
        const id = await tx.nextChangeId();
        await sleep(50);
        await tx.writeChanges([changeRow(id, 'x:A', '2024-01-01')]);
        await sleep(20);
        events.push('first ends');
        return id;
      });
      await firstHolds;
      const second = store.withImport(async (tx) => {
        events.push('second starts');
        const id = await tx.nextChangeId();
        await tx.writeChanges([changeRow(id, 'x:B', '2024-01-01')]);
        return id;
      });
      assert.deepEqual(await Promise.all([first, second]), [1, 2], "the second import sees the first one's change");
      assert.deepEqual(events, ['first starts', 'first ends', 'second starts']);
    });
  });

  test("nextChangeId and latestEffectiveDate: one more than the largest id, the latest date of the system's changes", async () => {
    await withStore(open, async (store) => {
      const read = (system: string | null) => store.withImport(async (tx) => [await tx.nextChangeId(), await tx.latestEffectiveDate(system)] as const);
      assert.deepEqual(await read('x'), [1, null]);
      await writeChanges(store, [changeRow(1, 'x:A', '2024-05-01'), changeRow(2, 'x:B', '2024-06-01')]);
      assert.deepEqual(await read('x'), [3, '2024-06-01']);
      // A back-dated change has the largest id but not the latest date.
      await writeChanges(store, [changeRow(3, 'x:C', '2023-01-01'), changeRow(7, 'x:D', '2024-02-29')]);
      assert.deepEqual(await read('x'), [8, '2024-06-01']);
      // Another system's dates are its own, also where one system's name begins another's.
      await writeChanges(store, [changeRow(8, 'xy:A', '2026-01-01'), changeRow(9, 'y:A', '2019-01-01')]);
      assert.deepEqual(await read('x'), [10, '2024-06-01']);
      assert.deepEqual(await read('y'), [10, '2019-01-01']);
      assert.deepEqual(await read('z'), [10, null]);
      assert.deepEqual(await read(null), [10, '2026-01-01'], 'and of every system');
    });
  });

  test('codeHashes lists every code of one system only, by id; codesById reads back their state', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, [codeRow('a:1'), codeRow('a:2', 'retired'), codeRow('ab:1'), codeRow('a.b:1'), codeRow('b:1')]);
      await store.withImport(async (tx) => {
        const hashes = await tx.codeHashes('a');
        assert.deepEqual(
          [...hashes].sort(([x], [y]) => (x < y ? -1 : 1)),
          [
            ['a:1', { hash: codeRow('a:1').hash, status: 'active' }],
            ['a:2', { hash: codeRow('a:2', 'retired').hash, status: 'retired' }],
          ],
        );
        assert.equal((await tx.codeHashes('nope')).size, 0);
        const stored = await tx.codesById(['a:2', 'a:missing', 'ab:1']);
        assert.deepEqual(
          stored.sort((x, y) => (x.id < y.id ? -1 : 1)),
          [
            {
              id: 'a:2',
              code: '2',
              display: 'Display of a:2',
              definition: null,
              status: 'retired',
              parents: [],
              attributes: { note: 'é "quoted", \\ back' },
              effectiveFrom: '2024-01-01',
              release: 'r1',
              wellFormed: true,
            },
            {
              id: 'ab:1',
              code: '1',
              display: 'Display of ab:1',
              definition: null,
              status: 'active',
              parents: [],
              attributes: { note: 'é "quoted", \\ back' },
              effectiveFrom: '2024-01-01',
              release: 'r1',
              wellFormed: true,
            },
          ],
        );
        assert.deepEqual(await tx.codesById([]), []);
      });
    });
  });

  test("codesById reads a record by its row's key, and text that is not well-formed back with U+FFFD, flagged", async () => {
    await withStore(open, async (store) => {
      // As an import of the code "X\ud800" left it: the key with U+FFFD, the JSON with the escape.
      const written = codeRow('a:X\ud800', 'active', 'Display \udc00');
      await writeCodes(store, [{ ...written, id: 'a:X\uFFFD', code: 'X\uFFFD' }]);
      await store.withImport(async (tx) => {
        assert.deepEqual([...(await tx.codeHashes('a')).keys()], ['a:X\uFFFD']);
        const [stored] = await tx.codesById(['a:X\uFFFD']);
        assert.deepEqual([stored!.id, stored!.code, stored!.display, stored!.wellFormed], ['a:X\uFFFD', 'X\uFFFD', 'Display \uFFFD', false]);
      });
    });
  });

  test('ensureSetting keeps the first value; getSetting reads it', async () => {
    await withStore(open, async (store) => {
      assert.equal(await store.getSetting('cursor_secret'), null);
      assert.equal(await store.ensureSetting('cursor_secret', 'first'), 'first');
      assert.equal(await store.ensureSetting('cursor_secret', 'second'), 'first');
      assert.equal(await store.getSetting('cursor_secret'), 'first');
      assert.equal(await store.getSetting('other'), null);
      const raced = await Promise.all([store.ensureSetting('raced', 'x'), store.ensureSetting('raced', 'y')]);
      assert.equal(raced[0], raced[1], 'two callers racing agree on the value kept');
    });
  });

  test('externalWriteVersion is NaN (cannot tell), or stays while reading and moves when an import commits', async () => {
    await withStore(open, async (store) => {
      const v0 = store.externalWriteVersion();
      if (Number.isNaN(v0)) return;
      await store.pageCodes({ ...NO_CODE_FILTERS, after: null, limit: 5 });
      assert.equal(store.externalWriteVersion(), v0, 'reading moves nothing');
      await writeCodes(store, [codeRow('x:A')]);
      assert.notEqual(store.externalWriteVersion(), v0, 'a committed import moves it');
    });
  });

  // /readyz turns ping into "take this instance out of rotation": it must fail when the database is gone, not only pass while it is there.
  test('ping resolves while the database answers and rejects once it is gone', async () => {
    await withStore(open, async (store) => {
      await store.ping();
      await store.close();
      await assert.rejects(store.ping());
    });
  });
}
