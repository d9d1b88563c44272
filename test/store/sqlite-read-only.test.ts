/**
 * SQLite files the server could open only read-only (src/store/sqlite/read-only.ts),
 * on real files made unwritable (helpers/unwritable.ts): the server's store
 * refuses to open on them, naming the file, while the CLI's reads still work;
 * and the request log's writer thread, whose connection was opened while the
 * activity file could not be written, opens another once it can: every entry
 * that waited is written, and the outage is reported once, at each end.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { DatabaseFileError } from '../../src/errors.ts';
import { RequestLogRecorder } from '../../src/services/access/request-log.ts';
import { activityPath } from '../../src/store/sqlite/activity.ts';
import { SqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { canOpenForWriting, makeAllWritable, makeUnwritable, makeWritable, skipUnlessUnwritable } from '../helpers/unwritable.ts';

const skip = skipUnlessUnwritable();
const dir = tempDir('codebook-read-only-');
after(() => {
  makeAllWritable();
  rmSync(dir, { recursive: true, force: true });
});

const T = '2026-03-01T00:00:00.000Z';

async function storeWithKey(path: string, options: Partial<SqliteStoreOptions> = {}): Promise<SqliteStore> {
  const store = new SqliteStore({ path, ...options });
  await store.access.seedPlans([{ name: 'basic', endpoints: ['codes.list'], ratePerMinute: 60, monthlyQuota: null, testKeysAllowed: true }]);
  if ((await store.access.getOrg('one')) === null) {
    await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
    await store.access.insertKey({ id: 'key_1', orgId: 'org_1', hash: 'hash1', displayPrefix: 'svc_live_abcd', name: 'first', mode: 'live', createdAt: T });
  }
  return store;
}

/** The Request-Ids in the activity file's request log, in the order written. */
function loggedIds(path: string): string[] {
  const db = new DatabaseSync(activityPath(path), { readOnly: true });
  try {
    return (db.prepare('SELECT request_id FROM request_log ORDER BY id').all() as { request_id: string }[]).map((r) => r.request_id);
  } finally {
    db.close();
  }
}

function record(recorder: RequestLogRecorder, requestId: string): void {
  recorder.record({
    orgId: 'org_1',
    keyId: 'key_1',
    keyPrefix: 'svc_live_abcd',
    // Now: the recorder's first prune keeps the organisation's last days.
    atMs: Date.now(),
    method: 'GET',
    url: '/v1/codes',
    status: 200,
    errorCode: null,
    durationMs: 1,
    requestId,
  });
}

describe('files SQLite could open only read-only', { skip }, () => {
  test('the server’s store does not open on an activity file it cannot write, and says which file; the CLI’s reads still do', async () => {
    const path = join(dir, 'start-activity.db');
    await (await storeWithKey(path)).close();
    makeUnwritable(activityPath(path));
    assert.throws(
      () => new SqliteStore({ path, writable: true }),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseFileError, String(error));
        assert.match(
          error.message,
          /^cannot write \S+start-activity\.db\.activity: SQLite could open it only read-only \(attempt to write a readonly database\)/,
        );
        assert.match(error.message, /usage counts, the limit counters, the request log/, 'what it holds');
        assert.match(error.message, /give the user it runs as write access/, 'what to do');
        assert.ok(!error.message.includes('\n'), 'one line');
        return true;
      },
    );
    const reader = new SqliteStore({ path });
    try {
      assert.equal((await reader.access.getOrg('one'))?.id, 'org_1');
    } finally {
      await reader.close();
    }
    makeWritable(activityPath(path));
    await new SqliteStore({ path, writable: true }).close();
  });

  test('nor on a database file it cannot write', async () => {
    const path = join(dir, 'start-main.db');
    await (await storeWithKey(path)).close();
    makeUnwritable(path);
    assert.throws(
      () => new SqliteStore({ path, writable: true }),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseFileError, String(error));
        assert.match(error.message, /^cannot write \S+start-main\.db: SQLite could open it only read-only/);
        assert.match(error.message, /codes, keys, organisations/);
        return true;
      },
    );
    makeWritable(path);
    await new SqliteStore({ path, writable: true }).close();
  });

  test('the writer thread opened while the activity file could not be written opens it again once it can: every entry written, one error and one notice', async () => {
    const path = join(dir, 'runtime.db');
    const notices: string[] = [];
    const store = await storeWithKey(path, { writable: true, onNotice: (message) => notices.push(message) });
    const errors: unknown[] = [];
    const recorder = new RequestLogRecorder(store.keyLife, { now: Date.now, flushIntervalMs: 20, onFlushError: (error) => errors.push(error) });
    try {
      // The thread starts with the first append, while the file cannot be written: SQLite opens it read-only.
      makeUnwritable(activityPath(path));
      for (let i = 1; i <= 5; i++) record(recorder, `req_${i}`);
      // The thread's start may take a while on a busy machine; then twenty more flushes.
      for (let waited = 0; errors.length === 0 && waited < 10_000; waited += 20) await sleep(20);
      await sleep(400);
      assert.deepEqual(loggedIds(path), []);
      assert.equal(errors.length, 1, `one error for the outage, not one a flush: ${errors.map(String).join('; ')}`);
      assert.ok(errors[0] instanceof DatabaseFileError, String(errors[0]));
      assert.match(
        errors[0].message,
        /^the request log's writer cannot write \S+runtime\.db\.activity \(attempt to write a readonly database\): its entries wait in memory/,
      );

      makeWritable(activityPath(path));
      assert.ok(canOpenForWriting(activityPath(path)));
      for (let waited = 0; loggedIds(path).length < 5 && waited < 5_000; waited += 50) await sleep(50);
      assert.deepEqual(loggedIds(path), ['req_1', 'req_2', 'req_3', 'req_4', 'req_5'], 'what waited is written once the file can be');
      for (let i = 6; i <= 10; i++) record(recorder, `req_${i}`);
      await recorder.close();
      assert.deepEqual(loggedIds(path), ['req_1', 'req_2', 'req_3', 'req_4', 'req_5', 'req_6', 'req_7', 'req_8', 'req_9', 'req_10']);
      assert.equal(errors.length, 1);
      assert.equal(notices.length, 1, notices.join('; '));
      assert.match(notices[0]!, /^the request log's writer can write \S+runtime\.db\.activity again/);
    } finally {
      await recorder.close();
      await store.close();
    }
  });
});
