/**
 * SQLite's batch reader thread: a batch, a search page or a page of codes or changes read there answers
 * exactly what the event loop's connection answers, sees every commit made before it was
 * asked, keeps its snapshot no longer than the data version and its age
 * allow, lets a batch in flight finish when the store closes, and gives way
 * to a new thread when one dies.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Worker } from 'node:worker_threads';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import type { BatchRecords } from '../../src/domain/navigation.ts';
import { BatchReader } from '../../src/store/sqlite/batch-reader.ts';
import { batchReader } from '../../src/store/sqlite/batch-read.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../../src/domain/pages.ts';
import { pageChanges, pageCodes } from '../../src/store/sqlite/pages.ts';
import type { CodeRecord } from '../../src/domain/records.ts';
import type { CodeSearchQuery, SearchKey } from '../../src/domain/search.ts';
import { searchTerms } from '../../src/domain/search-text.ts';
import { searchSqlite } from '../../src/store/sqlite/search.ts';
import { prepareArrays } from '../../src/store/sqlite/statements.ts';
import { NO_CHANGE_FILTERS } from './suite-fixtures.ts';
import { SqliteNavigation } from '../../src/store/sqlite/navigation.ts';
import { BUSY_TIMEOUT_MS } from '../../src/store/sqlite/busy.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';

const CODES = 300;
let dir: string;
let path: string;
let onThread: SqliteStore;
let onLoop: SqliteStore;
/** The thread, asked directly (a store would read on the event loop whatever the thread failed to answer). */
let reader: BatchReader;
/** The same statement on a connection of the event loop. */
let loopDb: DatabaseSync;

before(async () => {
  dir = tempDir();
  path = join(dir, 'codebook.db');
  onThread = new SqliteStore({ path, batchThreadMinIds: 1 });
  onLoop = new SqliteStore({ path, batchThreadMinIds: Number.POSITIVE_INFINITY });
  // Non-ASCII text (two- and four-byte UTF-8) in some records: the answer crosses as bytes.
  const rows = (display: string) =>
    Array.from({ length: CODES }, (_, i) => ({ code: `C${i}`, display: i % 3 === 0 ? `${display} ${i} São Tomé € 😀` : `${display} ${i}` }));
  await importRowsInto(onLoop, dir, rows('first'), { system: 'b', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  // The second release revises the first half and retires the rest: as-of reads differ from today's.
  await importRowsInto(onLoop, dir, rows('second').slice(0, CODES / 2), { system: 'b', release: 'r2', effectiveDate: '2024-06-01', mode: 'snapshot' });
  reader = new BatchReader({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 1 << 26 }, { minIds: 1 });
  loopDb = new DatabaseSync(path, { readOnly: true });
});
after(async () => {
  await reader.close();
  loopDb.close();
  await onThread.close();
  await onLoop.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The records of a batch, parsed, keyed by id. */
function records(batch: BatchRecords): Map<string, { display: string; status: string }> {
  const list = JSON.parse(`[${batch.json.toString()}]`) as { id: string; display: string; status: string }[];
  return new Map(list.map((r) => [r.id, r]));
}

/** The store's reader thread, and how many pages it has answered with a page (not an error): a test's look inside the store. */
function pagesOnThread(store: SqliteStore): { reader: BatchReader; answered: () => number } {
  const reader = (store as unknown as { batchReader: BatchReader }).batchReader;
  let answered = 0;
  const count = <T>(page: Promise<T>): Promise<T> => page.then((one) => (answered++, one));
  const pageCodes = reader.pageCodes.bind(reader);
  const pageChanges = reader.pageChanges.bind(reader);
  reader.pageCodes = (q, version) => count(pageCodes(q, version));
  reader.pageChanges = (q, version) => count(pageChanges(q, version));
  return { reader, answered: () => answered };
}

/** Every page of a walk, from the first on, each asked with the last key of the one before (stopped past most pages). */
async function walk<K, T = unknown>(read: (after: K | null) => Promise<RawPage<K, T>>, most = 4 * CODES): Promise<RawPage<K, T>[]> {
  const pages: RawPage<K, T>[] = [];
  let after: K | null = null;
  for (;;) {
    const page = await read(after);
    pages.push(page);
    if (!page.hasMore || pages.length > most) return pages;
    after = page.last;
  }
}

/** A statement on the event loop's connection, rows as arrays, as the store's pages and searches read them. */
const loopArrays = (sql: string): StatementSync => prepareArrays(loopDb, sql);

/** A thread on a new, empty database of its own, with snapshot bounds as given, and a writing connection to the same file. */
async function withScratchThread(
  snapshot: { snapshotMaxMs: number; snapshotIdleMs: number },
  body: (shared: BatchReader, writer: DatabaseSync) => Promise<void>,
  restartDelayMs?: number,
): Promise<void> {
  const scratch = tempDir();
  const file = join(scratch, 'codebook.db');
  await new SqliteStore({ path: file }).close();
  const shared = new BatchReader({ path: file, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 1 << 26, ...snapshot }, { minIds: 1, restartDelayMs });
  const writer = new DatabaseSync(file);
  try {
    await body(shared, writer);
  } finally {
    await shared.close();
    writer.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A code of system b committed by the writer (another connection than the threads'). */
function addCode(writer: DatabaseSync, code: string): void {
  writer
    .prepare("INSERT INTO codes (id, system, code, status, hash, json) VALUES (?, 'b', ?, 'active', 'h', ?)")
    .run(`b:${code}`, code, JSON.stringify({ id: `b:${code}` }));
}

/** Every running thread of the pool has given more than moreThan answers. */
function assertEveryThreadAnswered(pool: BatchReader, moreThan = 0): void {
  assert.ok(
    pool.answered.every((n) => n > moreThan),
    `every thread answered more than ${moreThan}: ${pool.answered.join(', ')}`,
  );
}

/** n small commits by the writer, which copies nothing from the WAL itself (wal_autocheckpoint = 0). */
function commits(writer: DatabaseSync, n: number): void {
  for (let i = 0; i < n; i++) writer.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run('probe', String(i));
}

/** After one commit, the WAL holds only that commit's frames (counted by a passive checkpoint): it started over. */
function assertWalStartedOver(writer: DatabaseSync): void {
  const { log } = writer.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number };
  assert.ok(log >= 1 && log < 10, `the WAL started over: ${log} frames in it after one commit`);
}

describe('the batch reader thread', () => {
  test('property: a batch read on the thread equals the same batch read on the event loop, now and as of any date', async () => {
    const id = fc.oneof(
      fc.integer({ min: 0, max: CODES - 1 }).map((i) => `b:C${i}`),
      fc.constantFrom('b:NONE', 'x:C1', 'b:c1', 'b:C1 ', ''),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(id, { minLength: 1, maxLength: 200 }),
        fc.constantFrom(null, '2023-12-31', '2024-01-01', '2024-03-15', '2024-06-01', '2030-01-01'),
        async (ids, asOf) => {
          const threaded = await reader.read(ids, asOf, 0);
          const looped = batchReader(loopDb)(ids, asOf);
          assert.ok(threaded.json.equals(looped.json), 'the same bytes');
          assert.deepEqual(threaded.missing, looped.missing);
          // Every id is answered once: found, in the order asked, or not found.
          const found = [...records(threaded).keys()];
          assert.deepEqual(
            found,
            ids.filter((one) => !threaded.missing.includes(one)),
          );
        },
      ),
      { numRuns: 60 },
    );
    // Not vacuous: the thread found records, their text whole, and told apart the two dates.
    const ids = ['b:C0', `b:C${CODES - 1}`, 'b:NONE'];
    const now = await reader.read(ids, null, 0);
    const then = records(await reader.read(ids, '2024-03-15', 0));
    assert.deepEqual(now.missing, ['b:NONE']);
    assert.deepEqual([records(now).get('b:C0')?.display, then.get('b:C0')?.display], ['second 0 São Tomé € 😀', 'first 0 São Tomé € 😀']);
    assert.deepEqual([records(now).get(`b:C${CODES - 1}`)?.status, then.get(`b:C${CODES - 1}`)?.status], ['retired', 'active']);
  });

  test('a lone client is answered by one thread; batches asked together start a second, which answers the same', async () => {
    const pool = new BatchReader({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 1 << 26 }, { minIds: 1, threads: 2 });
    try {
      const ids = Array.from({ length: 50 }, (_, i) => `b:C${i * 5}`);
      const expected = batchReader(loopDb)(ids, null);
      for (let i = 0; i < 3; i++) assert.ok((await pool.read(ids, null, 0)).json.equals(expected.json));
      assert.equal(pool.answered.length, 1, 'one thread for one batch at a time');
      const together = await Promise.all(Array.from({ length: 8 }, (_, i) => pool.read(ids, i % 2 === 0 ? null : '2024-03-15', 0)));
      assert.equal(pool.answered.length, 2, 'a second thread under concurrent batches, and no more');
      assertEveryThreadAnswered(pool);
      const then = batchReader(loopDb)(ids, '2024-03-15');
      together.forEach((batch, i) => assert.ok(batch.json.equals(i % 2 === 0 ? expected.json : then.json), `batch ${i}`));
    } finally {
      await pool.close();
    }
  });

  test('property: a search walked page by page on the thread equals the same walk on the event loop', async () => {
    const searchWalk = (read: (q: CodeSearchQuery) => Promise<RawPage<SearchKey, CodeRecord>>, q: Omit<CodeSearchQuery, 'after'>) =>
      walk<SearchKey, CodeRecord>((after) => read({ ...q, after }), CODES);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('first', 'second', 'fir', 's', 'c1', 'C12', 'b', 'sao', 'SÃO tomé', '😀', '1', 'second 1', 'nothing', '.', 'c12 s', 'c1 f s'),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(null, 'b', 'x'),
        fc.constantFrom(null, 'active' as const, 'retired' as const),
        async (text, limit, system, status) => {
          const q = { terms: searchTerms(text), limit, system, status };
          const threaded = await searchWalk((one) => reader.search(one, {}, 0), q);
          const looped = await searchWalk((one) => searchSqlite({ arrays: loopArrays }, one), q);
          assert.deepEqual(threaded, looped);
        },
      ),
      { numRuns: 60 },
    );
    // Not vacuous: the thread walked more than one page and found the record asked for.
    const pages = await searchWalk((one) => reader.search(one, {}, 0), { terms: searchTerms('sao tome'), limit: 10, system: null, status: null });
    assert.ok(pages.length > 1);
    assert.equal((JSON.parse(`[${pages[0]!.json.toString('utf8')}]`) as { display: string }[])[0]!.display, 'second 0 São Tomé € 😀');
  });

  test('property: pages of codes and of changes walked on the thread equal the same walks on the event loop', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom(null, 'b', 'x'),
        fc.constantFrom(null, 'active' as const, 'retired' as const),
        async (limit, system, status) => {
          const q = { limit, system, status };
          const threaded = await walk<string>((after) => reader.pageCodes({ ...q, after }, 0));
          assert.deepEqual(threaded, await walk<string>(async (after) => pageCodes(loopArrays, { ...q, after })));
        },
      ),
      { numRuns: 30 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 250 }),
        fc.record({
          system: fc.constantFrom(null, 'b', 'x'),
          codeId: fc.constantFrom(null, 'b:C0', 'b:C200', 'b:NONE'),
          type: fc.constantFrom(null, 'added' as const, 'revised' as const, 'retired' as const),
          effectiveFrom: fc.constantFrom(null, '2024-01-01', '2024-03-01'),
          effectiveTo: fc.constantFrom(null, '2024-01-01', '2030-01-01'),
          release: fc.constantFrom(null, 'r1', 'r2', 'r9'),
        }),
        async (limit, filters) => {
          const q: Omit<ChangePageQuery, 'after'> = { limit, ...filters };
          const threaded = await walk<ChangeKey>((after) => reader.pageChanges({ ...q, after }, 0));
          assert.deepEqual(threaded, await walk<ChangeKey>(async (after) => pageChanges(loopArrays, { ...q, after })));
        },
      ),
      { numRuns: 40 },
    );
    // Not vacuous: both walks went over more than one page, with the records whole.
    const codes = await walk<string>((after) => reader.pageCodes({ after, limit: 100, system: 'b', status: null }, 0));
    assert.equal(codes.length, 3);
    assert.equal((JSON.parse(`[${codes[0]!.json.toString('utf8')}]`) as { display: string }[])[0]!.display, 'second 0 São Tomé € 😀');
    const changes = await walk<ChangeKey>((after) => reader.pageChanges({ ...NO_CHANGE_FILTERS, after, limit: 100 }, 0));
    assert.ok(changes.length >= 5, `${changes.length} pages of changes`);
  });

  test('pages asked of the store together are read on the event loop unless the store is set to read them on the thread', async () => {
    const query = { after: null, limit: 20, system: 'b', status: null };
    for (const setting of [undefined, false]) {
      const store = new SqliteStore({ path, pagesOnThread: setting });
      try {
        await Promise.all([0, 1, 2, 3].map(() => store.pageCodes(query)));
        assert.deepEqual(pagesOnThread(store).reader.answered, [], `pagesOnThread ${setting}: no thread started`);
      } finally {
        await store.close();
      }
    }
  });

  test('pages asked of the store together are read on the first thread, and equal a lone page read on the event loop', async () => {
    const store = new SqliteStore({ path, pagesOnThread: true });
    const { reader: threads, answered } = pagesOnThread(store);
    try {
      const query = (at: number): CodePageQuery => ({ after: `b:C${at}`, limit: 20, system: 'b', status: null });
      const lone = await store.pageCodes(query(10));
      assert.deepEqual(threads.answered, [], 'a lone page is read on the event loop');
      // The next turn: the first page of it is read here (the turn before had one), the others go to the thread.
      await new Promise((resolve) => setImmediate(resolve));
      const together = await Promise.all([10, 20, 30, 40].map((at) => store.pageCodes(query(at))));
      const changesQuery: ChangePageQuery = { ...NO_CHANGE_FILTERS, after: null, limit: 30, system: 'b' };
      const changes = await Promise.all([0, 1].map(() => store.pageChanges(changesQuery)));
      assert.deepEqual(threads.answered, [5], 'three pages of codes and both pages of changes went to one thread');
      assert.equal(answered(), 5, 'and it answered each with a page');
      assert.deepEqual(together[0], lone);
      for (const [i, page] of together.entries()) assert.deepEqual(page, await onLoop.pageCodes(query(10 * (i + 1))));
      const expected = await onLoop.pageChanges(changesQuery);
      assert.deepEqual(changes, [expected, expected]);
      assert.equal(expected.count, 30);
    } finally {
      await store.close();
    }
  });

  test('pages go to the thread that leads, never to a second one started by batches, even once the first died', async () => {
    for (const restartDelayMs of [0, 60_000]) {
      const pool = new BatchReader({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 1 << 26 }, { minIds: 1, threads: 2, restartDelayMs });
      const pages = () =>
        Promise.allSettled(Array.from({ length: 8 }, (_, i) => pool.pageCodes({ after: `b:C${i}`, limit: 10, system: null, status: null }, 0)));
      try {
        const ids = Array.from({ length: 50 }, (_, i) => `b:C${i}`);
        await Promise.all(Array.from({ length: 8 }, () => pool.read(ids, null, 0)));
        assert.equal(pool.answered.length, 2, 'two threads running');
        const before = pool.answered;
        assert.ok((await pages()).every((page) => page.status === 'fulfilled'));
        assert.deepEqual(pool.answered, [before[0]! + 8, before[1]], 'the first thread read every page');
        // The first thread dies: a new one leads in its place when one may start now; else the pages are refused.
        await (pool as unknown as { threads: { worker: Worker }[] }).threads[0]!.worker.terminate();
        const running = (): number => pool.answered.length;
        while (running() !== 1) await sleep(5);
        const follower = pool.answered[0]!;
        const settled = await pages();
        if (restartDelayMs === 0) {
          assert.ok(settled.every((page) => page.status === 'fulfilled'));
          assert.deepEqual(pool.answered, [follower, 8], 'a new thread, the one that leads, read them');
        } else {
          assert.ok(settled.every((page) => page.status === 'rejected'));
          assert.deepEqual(pool.answered, [follower], 'the second thread was asked nothing');
        }
      } finally {
        await pool.close();
      }
    }
  });

  test('pages asked of the store together see an import committed before they were asked', async () => {
    const store = new SqliteStore({ path, pagesOnThread: true });
    const { answered } = pagesOnThread(store);
    // Three pages of each kind asked together: the thread reads most of them.
    const counts = async (system: string) => [
      (await Promise.all([0, 1, 2].map(() => store.pageCodes({ after: null, limit: 10, system, status: null })))).map((page) => page.count),
      (await Promise.all([0, 1, 2].map(() => store.pageChanges({ ...NO_CHANGE_FILTERS, after: null, limit: 10, system })))).map((page) => page.count),
    ];
    try {
      assert.deepEqual(await counts('late'), [
        [0, 0, 0],
        [0, 0, 0],
      ]);
      await importRowsInto(onLoop, dir, [{ code: 'L1', display: 'late' }], { system: 'late', release: 'r1', effectiveDate: '2024-07-01' });
      assert.deepEqual(await counts('late'), [
        [1, 1, 1],
        [1, 1, 1],
      ]);
      assert.ok(answered() >= 8, `the thread answered most of them with a page: ${answered()} of 12`);
    } finally {
      await store.close();
    }
  });

  test('a search on the store sees an import committed before it was asked', async () => {
    const found = async () => (await onThread.searchCodes({ terms: searchTerms('brand new'), after: null, limit: 10, system: null, status: null })).count;
    assert.equal(await found(), 0);
    await importRowsInto(onLoop, dir, [{ code: 'FRESH', display: 'brand new' }], { system: 'n', release: 'r1', effectiveDate: '2024-07-01' });
    assert.equal(await found(), 1);
  });

  test('a batch sees a commit that another connection made before it was asked', async () => {
    const before = await onThread.navigation.codesBatch(['b:NEW', 'b:C0'], null);
    assert.deepEqual(before.missing, ['b:NEW']);
    await importRowsInto(onLoop, dir, [{ code: 'NEW', display: 'added later' }], { system: 'b', release: 'r3', effectiveDate: '2024-07-01' });
    const after = await onThread.navigation.codesBatch(['b:NEW', 'b:C0'], null);
    assert.deepEqual(after.missing, []);
    assert.equal(records(after).get('b:NEW')?.display, 'added later');
  });

  test('batches share a snapshot while the data version holds; a new version begins another', async () => {
    await withScratchThread({ snapshotMaxMs: 60_000, snapshotIdleMs: 60_000 }, async (shared, writer) => {
      const found = async (code: string, version: number) => (await shared.read([`b:${code}`], null, version)).missing.length === 0;
      assert.equal(await found('ONE', 1), false);
      addCode(writer, 'ONE');
      assert.equal(await found('ONE', 1), false, 'the same version: the snapshot of the batch before');
      assert.equal(await found('ONE', 2), true, 'a new version: a new snapshot, past every commit before it');
      addCode(writer, 'TWO');
      assert.equal(await found('TWO', 2), false);
      assert.equal(await found('TWO', 3), true);
    });
  });

  test('when the first thread dies, the one that replaces it copies the WAL, so the WAL still starts over', async () => {
    await withScratchThread(
      { snapshotMaxMs: 60_000, snapshotIdleMs: 60_000 },
      async (shared, writer) => {
        writer.exec('PRAGMA wal_autocheckpoint = 0');
        const together = (version: number) => Promise.all(Array.from({ length: 4 }, () => shared.read(['b:C0'], null, version)));
        await together(1);
        assert.equal(shared.answered.length, 2);
        const running = (): number => shared.answered.length;
        // The first thread stops; the second goes on, and a flood starts another beside it.
        await (shared as unknown as { threads: { worker: Worker }[] }).threads[0]!.worker.terminate();
        while (running() !== 1) await sleep(5);
        await together(1);
        assert.equal(shared.answered.length, 2);
        commits(writer, 20);
        // Both threads are asked on the new version: the one that leads now ends its snapshot and copies the WAL.
        await together(2);
        commits(writer, 1);
        assertWalStartedOver(writer);
      },
      0,
    );
  });

  test('with two threads busy, every answer asked with a new version sees the commits before it', async () => {
    await withScratchThread({ snapshotMaxMs: 60_000, snapshotIdleMs: 60_000 }, async (shared, writer) => {
      const burst = (code: string, version: number) => Promise.all(Array.from({ length: 16 }, () => shared.read([`b:${code}`], null, version)));
      // Records to find, so that the long queue below takes the threads a while to read.
      for (let i = 0; i < 200; i++) addCode(writer, `C${i}`);
      assert.ok((await burst('ONE', 1)).every((answer) => answer.missing.length === 1));
      assertEveryThreadAnswered(shared);
      const many = Array.from({ length: 200 }, (_, i) => `b:C${i}`);
      for (let version = 2; version <= 6; version++) {
        // Asked while the threads still read a long queue of batches on the version before: each renews its snapshot mid-queue.
        const earlier = Promise.all(Array.from({ length: 100 }, () => shared.read(many, null, version - 1)));
        addCode(writer, `V${version}`);
        const answers = await burst(`V${version}`, version);
        await earlier;
        assert.deepEqual(
          answers.map((answer) => answer.missing),
          answers.map(() => []),
          `version ${version}: every answer found the code committed before it was asked`,
        );
      }
      assertEveryThreadAnswered(shared, 16);
    });
  });

  test('a thread no batch has asked for a while lets its snapshot go', async () => {
    await withScratchThread({ snapshotMaxMs: 60_000, snapshotIdleMs: 50 }, async (shared, writer) => {
      assert.deepEqual((await shared.read(['b:LATE'], null, 1)).missing, ['b:LATE']);
      writer.prepare("INSERT INTO codes (id, system, code, status, hash, json) VALUES ('b:LATE', 'b', 'LATE', 'active', 'h', '{}')").run();
      await sleep(300);
      assert.deepEqual((await shared.read(['b:LATE'], null, 1)).missing, [], 'the same version, but a new snapshot');
    });
  });

  test('the thread copies the WAL into the file when it lets a snapshot go, so the next commit starts the WAL over', async () => {
    await withScratchThread({ snapshotMaxMs: 60_000, snapshotIdleMs: 60_000 }, async (shared, writer) => {
      // The writer copies nothing itself: what the WAL sheds, the thread copied.
      writer.exec('PRAGMA wal_autocheckpoint = 0');
      commits(writer, 20);
      await shared.read(['b:C0'], null, 1);
      commits(writer, 20);
      await shared.read(['b:C0'], null, 2);
      // Copied whole when the new version ended the snapshot: this commit writes from the WAL's beginning.
      commits(writer, 1);
      assertWalStartedOver(writer);
    });
  });

  test('with two threads busy, the WAL still starts over: only the first holds a snapshot between its answers', async () => {
    await withScratchThread({ snapshotMaxMs: 60_000, snapshotIdleMs: 60_000 }, async (shared, writer) => {
      writer.exec('PRAGMA wal_autocheckpoint = 0');
      commits(writer, 20);
      await Promise.all(Array.from({ length: 4 }, () => shared.read(['b:C0'], null, 1)));
      assert.equal(shared.answered.length, 2);
      assertEveryThreadAnswered(shared);
      commits(writer, 20);
      // Asked alone, this goes to the first thread: the new version ends its snapshot and it copies the WAL.
      await shared.read(['b:C0'], null, 2);
      commits(writer, 1);
      assertWalStartedOver(writer);
    });
  });

  test('batches in flight when the thread is closed get their answers; one asked after is refused', async () => {
    const closing = new BatchReader({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1 });
    const ids = Array.from({ length: 200 }, (_, i) => `b:C${i}`);
    const inFlight = [closing.read(ids, null, 0), closing.read(ids, '2024-03-15', 0), closing.read(ids, null, 0)];
    const closed = closing.close();
    for (const answer of await Promise.all(inFlight)) assert.equal(records(answer).size, 200);
    await closed;
    await assert.rejects(closing.read(ids, null, 0), /the store is closed/);
    assert.equal(closing.close(), closing.close(), 'closing twice waits for the same close');
  });

  test('a thread finds no database: it creates none, refuses what it was asked, and after the restart delay another starts', async () => {
    const scratch = tempDir();
    try {
      const missing = join(scratch, 'codebook.db');
      const broken = new BatchReader({ path: missing, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1, restartDelayMs: 300 });
      await assert.rejects(broken.read(['b:C0'], null, 0), /unable to open|cannot open/i);
      assert.equal(existsSync(missing), false, 'the thread reads: it makes no file');
      const store = new SqliteStore({ path: missing });
      await store.close();
      // Within the delay no thread is started: the batch is refused at once.
      await assert.rejects(broken.read(['b:C0'], null, 0), /another starts shortly/);
      await sleep(350);
      const answer = await broken.read(['b:C0'], null, 0);
      assert.deepEqual([answer.json.length, answer.missing], [0, ['b:C0']], 'a new thread on the database now there answers');
      await broken.close();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('a batch the thread cannot answer is read on the event loop', async () => {
    const scratch = tempDir();
    const db = new DatabaseSync(path);
    const broken = new BatchReader({ path: join(scratch, 'none.db'), busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1 });
    try {
      const navigation = new SqliteNavigation(db, () => 0, broken);
      const ids = ['b:C0', 'b:NONE', 'b:C1'];
      const answer = await navigation.codesBatch(ids, null);
      assert.deepEqual([[...records(answer).keys()], answer.missing], [['b:C0', 'b:C1'], ['b:NONE']]);
      assert.equal(answer.json.toString(), (await onLoop.navigation.codesBatch(ids, null)).json.toString());
    } finally {
      await broken.close();
      db.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
