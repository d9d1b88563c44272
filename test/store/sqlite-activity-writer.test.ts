/**
 * The request log's writer thread on SQLite: what it appends is read back at
 * once on the store's own connection, in order; a graceful close waits for
 * what it was sent; when it dies, what it was sent is written all the same,
 * and later appends still land (on the event loop, until another thread
 * starts); a file locked by another connection makes flushes wait, one at a
 * time; and without the thread, large batches leave the event loop free
 * between their slices.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { EVENT_LOOP_APPEND_SLICE, RequestBatch, THREAD_APPEND } from '../../src/domain/request-batch.ts';
import type { RequestLogEntry } from '../../src/domain/key-life-records.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { activityPath } from '../../src/store/sqlite/activity.ts';
import { WRITER_BUSY_TIMEOUT_MS } from '../../src/store/sqlite/activity-writer.ts';
import { MAX_PENDING, RequestLogRecorder } from '../../src/services/access/request-log.ts';
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

/** How many entries of the activity file have a Request-Id with this prefix, and how many distinct ones. */
function countLogged(path: string, prefix: string): { n: number; ids: number } {
  const db = new DatabaseSync(activityPath(path), { readOnly: true });
  try {
    const row = db.prepare('SELECT count(*) AS n, count(DISTINCT request_id) AS ids FROM request_log WHERE request_id LIKE ?').get(`${prefix}%`) as {
      n: number;
      ids: number;
    };
    return { n: row.n, ids: row.ids };
  } finally {
    db.close();
  }
}

/** A store and a recorder on a file, a second connection to its activity file (to hold its lock), and their closing. */
async function withActivityFile(
  name: string,
  flushIntervalMs: number,
  body: (t: { path: string; store: SqliteStore; recorder: RequestLogRecorder; other: DatabaseSync }) => Promise<void>,
) {
  const path = join(dir, name);
  const store = await storeWithKey(path);
  const recorder = new RequestLogRecorder(store.keyLife, { now: Date.now, flushIntervalMs });
  const other = new DatabaseSync(activityPath(path));
  try {
    await body({ path, store, recorder, other });
  } finally {
    if (other.isTransaction) other.exec('ROLLBACK');
    other.close();
    await recorder.close();
    await store.close();
  }
}

/** The writer's thread, while one runs. */
function writerThread(store: SqliteStore): Worker | null {
  return (store.keyLife as unknown as { writer: { thread: { worker: Worker } | null } }).writer.thread?.worker ?? null;
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

test('when the thread dies, what it was sent is written all the same, and later appends land on the event loop', async () => {
  const store = await storeWithKey(join(dir, 'dies.db'));
  try {
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_before')])), true);
    const thread = writerThread(store)!;
    const inFlight = store.keyLife.appendRequests(RequestBatch.of([entry('req_in_flight')]));
    await thread.terminate();
    assert.equal(await inFlight, true, 'answered by the thread, or written on the event loop when it was not');
    assert.equal(writerThread(store), null);
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_after')])), true);
    assert.equal(writerThread(store), null, 'for a while, written on the event loop');
    const ids = await logged(store);
    assert.ok(ids.includes('req_in_flight'), 'the batch in flight is not lost');
    assert.deepEqual(
      ids.filter((id) => id !== 'req_in_flight'),
      ['req_before', 'req_after'],
    );
  } finally {
    await store.close();
  }
});

test('a flush of requests with the longest paths goes to the thread in parts its bounded heap decodes: each request once, and the thread lives on', async () => {
  await withActivityFile('long-paths.db', 3_600_000, async ({ path, store, recorder }) => {
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_first')])), true);
    const thread = writerThread(store);
    assert.notEqual(thread, null);
    let died: unknown = null;
    thread!.once('exit', (code) => (died = code));
    const appends = countAppends(store);
    // A URL as long as Node's parser lets through (16 KB of headers), 2 000 times: 32 MB of paths in one flush.
    const url = `/v1/codes/search?q=${'a'.repeat(16_000)}`;
    const total = 2_000;
    for (let i = 0; i < total; i++) recorder.record({ ...pending(`req_long_${i}`), url });
    await recorder.flush();
    assert.equal(died, null, 'the thread did not run out of memory');
    assert.equal(writerThread(store), thread, 'the same thread still writes');
    assert.ok(appends() >= 30, `sent in parts of at most 1 MiB of text, 30.5 MiB in all (${appends()} appends)`);
    assert.deepEqual(countLogged(path, 'req_long_'), { n: total, ids: total });
  });
});

test('while no thread runs (it died a moment ago), a large flush is appended a few hundred at a time on the event loop', async () => {
  await withActivityFile('no-thread.db', 3_600_000, async ({ store, recorder }) => {
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_first')])), true);
    await writerThread(store)!.terminate();
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_second')])), true);
    assert.equal(writerThread(store), null, 'none runs for a while');
    const appends = countAppends(store);
    const total = 3 * EVENT_LOOP_APPEND_SLICE + 1;
    for (let i = 0; i < total; i++) recorder.record(pending(`req_loop_${i}`));
    await recorder.flush();
    assert.equal(appends(), 4, 'three slices of 200 and one of 1');
    assert.equal((await logged(store)).filter((id) => id.startsWith('req_loop_')).length, total);
  });
});

test('a thread that dies during a flush leaves the rest of that flush to slices of 200 on the event loop', async () => {
  await withActivityFile('dies-mid-flush.db', 3_600_000, async ({ path, store, recorder }) => {
    assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry('req_first')])), true);
    const keyLife = store.keyLife as unknown as { appendRequests: (batch: RequestBatch) => Promise<boolean> };
    const append = keyLife.appendRequests.bind(keyLife);
    const sizes: number[] = [];
    keyLife.appendRequests = (batch) => {
      sizes.push(batch.length);
      // The thread dies as the first part is handed to it: it never answers, and that part is written on the event loop.
      if (sizes.length === 1) void writerThread(store)?.terminate();
      return append(batch);
    };
    // Within the 10 000 entries an organisation keeps, so that every one can be counted.
    const total = THREAD_APPEND.requests + 1_000;
    for (let i = 0; i < total; i++) recorder.record(pending(`req_mid_${i}`));
    await recorder.flush();
    assert.equal(sizes[0], THREAD_APPEND.requests, 'the first part as the thread takes it');
    assert.ok(
      sizes.slice(1).every((n) => n <= EVENT_LOOP_APPEND_SLICE),
      `then slices of at most ${EVENT_LOOP_APPEND_SLICE}: ${sizes.slice(1, 4).join(', ')}…`,
    );
    assert.deepEqual(countLogged(path, 'req_mid_'), { n: total, ids: total });
  });
});

test('entries a failed flush cannot keep within the bound are counted as dropped', async () => {
  await withActivityFile('dropped.db', 3_600_000, async ({ path, recorder, other }) => {
    for (let i = 0; i < MAX_PENDING; i++) recorder.record(pending(`req_full_${i}`));
    other.exec('BEGIN IMMEDIATE');
    const flushing = recorder.flush();
    // Arriving while the flush waits for the lock: with the batch it gives back, ten more than the bound.
    for (let i = 0; i < 10; i++) recorder.record(pending(`req_late_${i}`));
    await flushing;
    assert.equal(recorder.dropped, 10);
    other.exec('ROLLBACK');
    await recorder.close();
    // What was kept is written once the lock is let go (the organisation keeps its newest 10 000): the late ones were the ones dropped.
    assert.deepEqual(countLogged(path, 'req_full_19999'), { n: 1, ids: 1 });
    assert.deepEqual(countLogged(path, 'req_late_'), { n: 0, ids: 0 });
  });
});

test("a prune runs on the writer thread, not on the event loop's connection; without a thread, there as before", async () => {
  await withActivityFile('prune.db', 3_600_000, async ({ path, store }) => {
    const deletesHere = countDeletesOnEventLoop(store);
    const batch = (from: number, n: number) => RequestBatch.of(Array.from({ length: n }, (_, i) => entry(`req_prune_${from + i}`)));
    assert.equal(await store.keyLife.appendRequests(batch(0, 3_000)), true);
    await store.keyLife.pruneRequests('org_1', T, 1_000);
    assert.equal(deletesHere(), 0, 'no DELETE on the event loop');
    assert.deepEqual(countLogged(path, 'req_prune_'), { n: 1_000, ids: 1_000 });
    assert.deepEqual(countLogged(path, 'req_prune_2999'), { n: 1, ids: 1 }, 'the newest kept');

    await writerThread(store)!.terminate();
    assert.equal(await store.keyLife.appendRequests(batch(3_000, 1_000)), true);
    assert.equal(writerThread(store), null, 'none runs for a while');
    await store.keyLife.pruneRequests('org_1', T, 500);
    assert.ok(deletesHere() > 0, 'on the event loop while no thread runs');
    assert.deepEqual(countLogged(path, 'req_prune_'), { n: 500, ids: 500 });
    assert.deepEqual(countLogged(path, 'req_prune_3999'), { n: 1, ids: 1 });
  });
});

test('while another connection holds the activity file, flushes do not pile up: a close waits for the lock, then writes everything once', async () => {
  await withActivityFile('locked.db', 20, async ({ store, recorder, other }) => {
    const attempts = countAppends(store);
    other.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 50; i++) recorder.record(pending(`req_locked_${i}`));
    // A second of 20 ms ticks: each append attempt waits out the thread's busy timeout (250 ms).
    await sleep(1_000);
    const waitedFor = attempts();
    assert.ok(waitedFor <= Math.ceil(1_000 / WRITER_BUSY_TIMEOUT_MS) + 1, `${waitedFor} attempts in a second: one at a time, not one a tick`);
    const closing = recorder.close();
    await sleep(100);
    other.exec('ROLLBACK');
    const started = performance.now();
    await closing;
    const ms = performance.now() - started;
    assert.ok(ms < 2 * WRITER_BUSY_TIMEOUT_MS + 500, `closed ${Math.round(ms)} ms after the lock was let go`);
    const ids = await logged(store);
    assert.equal(ids.length, 50);
    assert.equal(new Set(ids).size, 50, 'each once');
  });
});

test('without the thread (an in-memory database), a large batch is appended a slice at a time with the event loop free between the slices', async () => {
  const store = await storeWithKey(':memory:');
  const recorder = new RequestLogRecorder(store.keyLife, { now: Date.now, flushIntervalMs: 3_600_000 });
  try {
    const total = 3 * EVENT_LOOP_APPEND_SLICE + 1;
    for (let i = 0; i < total; i++) recorder.record(pending(`req_slice_${i}`));
    const flushed = recorder.flush();
    // What the event loop runs next, as a request arriving during the flush would be.
    await new Promise((resolve) => setImmediate(resolve));
    const between = await logged(store);
    assert.equal(between.length, EVENT_LOOP_APPEND_SLICE, 'between slices: the first one written, not the rest');
    await flushed;
    assert.equal((await logged(store)).length, total, 'the whole batch once the flush returns');
  } finally {
    await recorder.close();
    await store.close();
  }
});

/** A counter of the DELETE statements the store's key-life part runs on its own (the event loop's) connection. */
function countDeletesOnEventLoop(store: SqliteStore): () => number {
  let n = 0;
  // The Sql the request log's deletes go through (SqliteKeyLifeStore's requestLogSql, the same object each time).
  const sql = (store.keyLife as unknown as { requestLogSql: { run: (query: string, params?: unknown[]) => Promise<number> } }).requestLogSql;
  const run = sql.run.bind(sql);
  sql.run = (query, params) => {
    if (query.startsWith('DELETE FROM request_log')) n++;
    return run(query, params);
  };
  return () => n;
}

/** A counter of the append attempts the store's key-life part has made so far. */
function countAppends(store: SqliteStore): () => number {
  let n = 0;
  const keyLife = store.keyLife as unknown as { appendRequests: (batch: RequestBatch) => Promise<boolean> };
  const append = keyLife.appendRequests.bind(keyLife);
  keyLife.appendRequests = (batch) => {
    n++;
    return append(batch);
  };
  return () => n;
}

/** A request as the recorder takes it, made now (the recorder prunes what is older than its organisation's days). */
const pending = (requestId: string) => {
  const { path, at: _at, ...rest } = entry(requestId);
  return { ...rest, atMs: Date.now(), url: path };
};
