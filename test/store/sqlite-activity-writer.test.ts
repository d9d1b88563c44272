/**
 * The request log's writer thread on SQLite: what it appends is read back at
 * once on the store's own connection, in order; a graceful close waits for
 * what it was sent; when it dies, nothing it was sent is taken for written
 * unless it was, and later appends still land (on the event loop, until
 * another thread starts).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { RequestBatch } from '../../src/domain/request-batch.ts';
import type { RequestLogEntry } from '../../src/domain/key-life-records.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';

let dir: string;
before(() => {
  dir = tempDir('codebook-activity-writer-');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const T = '2026-03-01T00:00:00.000Z';

async function storeWithKey(path: string): Promise<SqliteStore> {
  const store = new SqliteStore({ path });
  await store.access.seedPlans([{ name: 'basic', endpoints: ['codes.list'], ratePerMinute: 60, monthlyQuota: null, testKeysAllowed: true }]);
  if ((await store.access.getOrg('one')) === null) {
    await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
    await store.access.insertKey({ id: 'key_1', orgId: 'org_1', hash: 'hash1', displayPrefix: 'svc_live_abcd', name: 'first', mode: 'live', createdAt: T });
  }
  return store;
}

const entry = (requestId: string): RequestLogEntry => ({
  orgId: 'org_1',
  keyId: 'key_1',
  keyPrefix: 'svc_live_abcd',
  at: '2026-03-15T12:00:00.000Z',
  method: 'GET',
  path: '/v1/codes/dx:é',
  status: 200,
  errorCode: null,
  durationMs: 1,
  requestId,
});

async function logged(store: SqliteStore): Promise<string[]> {
  const page = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 1000 });
  return page.entries.map((e) => e.requestId).reverse();
}

/** The writer's thread, while one runs. */
function writerThread(store: SqliteStore): Worker | null {
  return (store.keyLife as unknown as { writer: { thread: Worker | null } }).writer.thread;
}

test('appends are written on a thread of their own, in order, and read back at once on the store’s connection', async () => {
  const store = await storeWithKey(join(dir, 'order.db'));
  try {
    const appends = Array.from({ length: 5 }, (_, i) => store.keyLife.appendRequests(RequestBatch.of([entry(`req_${i}a`), entry(`req_${i}b`)])));
    assert.notEqual(writerThread(store), null, 'a thread was started for them');
    assert.deepEqual(await Promise.all(appends), [true, true, true, true, true]);
    assert.deepEqual(await logged(store), ['req_0a', 'req_0b', 'req_1a', 'req_1b', 'req_2a', 'req_2b', 'req_3a', 'req_3b', 'req_4a', 'req_4b']);
    const [first] = (await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: 'req_0a', before: null, limit: 1 })).entries;
    assert.deepEqual({ ...first!, id: 0 }, { ...entry('req_0a'), id: 0 });
  } finally {
    await store.close();
  }
});

test('a graceful close waits for the appends sent to the thread', async () => {
  const path = join(dir, 'close.db');
  const store = await storeWithKey(path);
  const sent = store.keyLife.appendRequests(RequestBatch.of(Array.from({ length: 500 }, (_, i) => entry(`req_close_${i}`))));
  await store.close();
  assert.equal(await sent, true);
  const again = await storeWithKey(path);
  try {
    assert.equal((await logged(again)).length, 500);
  } finally {
    await again.close();
  }
});

test('when the thread dies, what it was sent is written or refused, never both, and later appends still land', async () => {
  const store = await storeWithKey(join(dir, 'dies.db'));
  try {
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_before')])), true);
    const thread = writerThread(store)!;
    const inFlight = store.keyLife.appendRequests(RequestBatch.of([entry('req_in_flight')]));
    await thread.terminate();
    const written = await inFlight.then(
      (ok) => ok,
      (error: Error) => {
        assert.match(error.message, /writer thread stopped/);
        return false;
      },
    );
    assert.equal((await logged(store)).includes('req_in_flight'), written, 'refused means not written; written means answered true');
    assert.equal(writerThread(store), null);
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_after')])), true);
    assert.equal(writerThread(store), null, 'for a while, written on the event loop');
    assert.deepEqual(
      (await logged(store)).filter((id) => id !== 'req_in_flight'),
      ['req_before', 'req_after'],
    );
  } finally {
    await store.close();
  }
});
