/**
 * SQLite's batch reader thread: a batch read there answers exactly what the
 * event loop's connection answers, sees every commit made before it was
 * asked, lets a batch in flight finish when the store closes, and gives way
 * to a new thread when one dies.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import type { BatchRecords } from '../../src/domain/navigation.ts';
import { BatchReader } from '../../src/store/sqlite/batch-reader.ts';
import { openDatabase } from '../../src/store/sqlite/connection.ts';
import { SqliteNavigation } from '../../src/store/sqlite/navigation.ts';
import { BUSY_TIMEOUT_MS } from '../../src/store/sqlite/busy.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';

const CODES = 300;
let dir: string;
let path: string;
let onThread: SqliteStore;
let onLoop: SqliteStore;

before(async () => {
  dir = tempDir();
  path = join(dir, 'codebook.db');
  onThread = new SqliteStore({ path, batchThreadMinIds: 1 });
  onLoop = new SqliteStore({ path, batchThreadMinIds: Number.POSITIVE_INFINITY });
  const rows = (display: string) => Array.from({ length: CODES }, (_, i) => ({ code: `C${i}`, display: `${display} ${i}` }));
  await importRowsInto(onLoop, dir, rows('first'), { system: 'b', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  // The second release revises the first half and retires the rest: as-of reads differ from today's.
  await importRowsInto(onLoop, dir, rows('second').slice(0, CODES / 2), { system: 'b', release: 'r2', effectiveDate: '2024-06-01', mode: 'snapshot' });
});
after(async () => {
  await onThread.close();
  await onLoop.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The records of a batch, parsed, keyed by id. */
function records(batch: BatchRecords): Map<string, { display: string; status: string }> {
  const list = JSON.parse(`[${batch.json.toString()}]`) as { id: string; display: string; status: string }[];
  return new Map(list.map((r) => [r.id, r]));
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
          const [threaded, looped] = await Promise.all([onThread.navigation.codesBatch(ids, asOf), onLoop.navigation.codesBatch(ids, asOf)]);
          assert.equal(threaded.json.toString(), looped.json.toString());
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
    // Not vacuous: the thread found records and told apart the two dates.
    const ids = ['b:C0', `b:C${CODES - 1}`, 'b:NONE'];
    const now = await onThread.navigation.codesBatch(ids, null);
    const then = records(await onThread.navigation.codesBatch(ids, '2024-03-15'));
    assert.deepEqual(now.missing, ['b:NONE']);
    assert.deepEqual([records(now).get('b:C0')?.display, then.get('b:C0')?.display], ['second 0', 'first 0']);
    assert.deepEqual([records(now).get(`b:C${CODES - 1}`)?.status, then.get(`b:C${CODES - 1}`)?.status], ['retired', 'active']);
  });

  test('a batch sees a commit that another connection made before it was asked', async () => {
    const before = await onThread.navigation.codesBatch(['b:NEW', 'b:C0'], null);
    assert.deepEqual(before.missing, ['b:NEW']);
    await importRowsInto(onLoop, dir, [{ code: 'NEW', display: 'added later' }], { system: 'b', release: 'r3', effectiveDate: '2024-07-01' });
    const after = await onThread.navigation.codesBatch(['b:NEW', 'b:C0'], null);
    assert.deepEqual(after.missing, []);
    assert.equal(records(after).get('b:NEW')?.display, 'added later');
  });

  test('a batch in flight when the store closes gets its answer; one asked after is refused', async () => {
    const store = new SqliteStore({ path, batchThreadMinIds: 1 });
    const ids = Array.from({ length: 200 }, (_, i) => `b:C${i}`);
    const inFlight = store.navigation.codesBatch(ids, null);
    const closed = store.close();
    assert.equal(records(await inFlight).size, 200);
    await closed;
    const reader = new BatchReader({ path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1 });
    await reader.close();
    await assert.rejects(reader.read(ids, null), /the store is closed/);
  });

  test('a thread that cannot open the file refuses what it was asked; after the restart delay the next batch starts a new thread', async () => {
    const scratch = tempDir();
    try {
      // The database's folder is a file: the thread cannot open the database.
      const blocked = join(scratch, 'folder');
      writeFileSync(blocked, 'not a folder');
      const reader = new BatchReader({ path: join(blocked, 'codebook.db'), busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1, restartDelayMs: 300 });
      await assert.rejects(reader.read(['b:C0'], null), (error: Error) => /ENOTDIR|EEXIST|not a directory/i.test(error.message));
      rmSync(blocked);
      mkdirSync(blocked);
      // Within the delay no thread is started: the batch is refused at once.
      await assert.rejects(reader.read(['b:C0'], null), /another starts shortly/);
      await sleep(350);
      const store = new SqliteStore({ path: join(blocked, 'codebook.db') });
      await store.close();
      const answer = await reader.read(['b:C0'], null);
      assert.deepEqual([answer.json.length, answer.missing], [0, ['b:C0']], 'a new thread on the now-readable database answers');
      await reader.close();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('a batch the thread cannot answer is read on the event loop', async () => {
    const scratch = tempDir();
    const db = openDatabase(path, BUSY_TIMEOUT_MS, 0);
    const broken = new BatchReader({ path: join(scratch, 'file', 'codebook.db'), busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes: 0 }, { minIds: 1 });
    try {
      writeFileSync(join(scratch, 'file'), 'not a folder');
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
