/**
 * SQLite files the server could open only read-only (src/store/sqlite/read-only.ts),
 * on real files made unwritable (helpers/unwritable.ts): the server's store
 * refuses to open on them, naming the file, while the CLI's reads still work.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DatabaseNotWritable } from '../../src/errors.ts';
import { activityPath } from '../../src/store/sqlite/activity.ts';
import { SqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { makeAllWritable, makeUnwritable, makeWritable, skipUnlessUnwritable } from '../helpers/unwritable.ts';

const dir = tempDir('codebook-read-only-');
const skip = skipUnlessUnwritable(dir);
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

describe('files SQLite could open only read-only', { skip }, () => {
  test('the server’s store does not open on an activity file it cannot write, and says which file; the CLI’s reads still do', async () => {
    const path = join(dir, 'start-activity.db');
    await (await storeWithKey(path)).close();
    makeUnwritable(activityPath(path));
    assert.throws(
      () => new SqliteStore({ path, writable: true }),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseNotWritable, String(error));
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
        assert.ok(error instanceof DatabaseNotWritable, String(error));
        assert.match(error.message, /^cannot write \S+start-main\.db: SQLite could open it only read-only/);
        assert.match(error.message, /codes, keys, organisations/);
        return true;
      },
    );
    makeWritable(path);
    await new SqliteStore({ path, writable: true }).close();
  });
});
