/**
 * The server's connection reads in one transaction per turn of the event loop
 * (src/store/sqlite/read-turn.ts): the next turn sees every commit made
 * before it, a turn that outlasts its loop turn gives way once a writer in
 * another process would have returned, what this process writes it reads back
 * at once, and no transaction outlives its turn.
 */
import assert from 'node:assert/strict';
import { rmSync, stat } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { SETTLE_MS } from '../../src/store/sqlite/write-window.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';

let dir: string;
let store: SqliteStore;
/** Another connection to the file, as another process would have. */
let other: DatabaseSync;

before(() => {
  dir = tempDir();
  const path = join(dir, 'codebook.db');
  store = new SqliteStore({ path });
  other = new DatabaseSync(path);
});
after(async () => {
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const setElsewhere = (key: string, value: string) => other.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(key, value);

test('the next turn sees what another connection committed before it', async () => {
  await nextTurn();
  assert.equal(await store.getSetting('probe'), null);
  setElsewhere('probe', 'one');
  await nextTurn();
  assert.equal(await store.getSetting('probe'), 'one');
});

test("a turn that outlasts its loop turn gives way once a writer's settling time has passed: the read and the version see the commit", async () => {
  // Begun in a timer callback, the turn lasts through the poll phase that follows (its end is a
  // setImmediate, run after it): an I/O callback there reads in it unless its age ends it.
  const seen = await new Promise<{ before: string | null; after: string | null; versionMoved: boolean }>((resolve) => {
    setTimeout(() => {
      void (async () => {
        const version = store.externalWriteVersion();
        const before = await store.getSetting('late');
        setElsewhere('late', 'committed');
        const committedAt = performance.now();
        stat(dir, () => {
          void (async () => {
            const after = await store.getSetting('late');
            resolve({ before, after, versionMoved: store.externalWriteVersion() !== version });
          })();
        });
        // A writer returns SETTLE_MS after its commit; a request after that must see it.
        while (performance.now() - committedAt < SETTLE_MS + 1) {
          // waiting on the clock, in the same callback: the stat's answer comes in this loop's poll phase
        }
      })();
    }, 0);
  });
  assert.deepEqual(seen, { before: null, after: 'committed', versionMoved: true });
});

test('no read transaction outlives its turn: another connection can start the WAL over', async () => {
  await nextTurn();
  await store.getSetting('probe');
  await nextTurn();
  // A reader holding a snapshot would keep a TRUNCATE checkpoint from finishing (busy = 1).
  const { busy } = other.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
  assert.equal(busy, 0);
});

test('what the process writes, it reads back in the same turn: its own writes and its imports', async () => {
  await nextTurn();
  assert.equal(await store.getSetting('own'), null);
  assert.equal(await store.ensureSetting('own', 'written'), 'written');
  assert.equal(await store.getSetting('own'), 'written');

  // Another store of this process, on the same file: its write ends this store's turn too.
  const second = new SqliteStore({ path: join(dir, 'codebook.db') });
  try {
    assert.equal(await store.getSetting('theirs'), null);
    await second.ensureSetting('theirs', 'written there');
    assert.equal(await store.getSetting('theirs'), 'written there');
  } finally {
    await second.close();
  }

  assert.equal(await store.codeJson('t:A'), null);
  await importRowsInto(store, dir, [{ code: 'A', display: 'Alpha' }], { system: 't', release: 'r1', effectiveDate: '2024-01-01' });
  assert.equal(await store.hasCodes(), true);
  assert.match(String(await store.codeJson('t:A')), /"display":"Alpha"/, 'the import, read back without waiting for a turn');
});
