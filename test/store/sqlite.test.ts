import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { NEW_FILE_PAGE_SIZE } from '../../src/store/sqlite/connection.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { SQLITE_MMAP_MAX_BYTES } from '../../src/config.ts';
import { openTempSqliteStore, tempDir } from '../helpers/context.ts';
import { storeSuite } from './store.suite.ts';
import { changeRow, codeRow, NO_CODE_FILTERS, pageAllCodes, writeChanges, writeCodes } from './suite-fixtures.ts';

storeSuite('sqlite', openTempSqliteStore);

/** Runs fn with a temp folder holding the path of a database file, then removes it. */
async function inTempDir(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  try {
    await fn(join(dir, 'nested', 'codebook.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What read() finds in the file, opened read-only for it and closed after. */
function readFile<T>(path: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function schemaOf(path: string): { version: number; tables: string[] } {
  return readFile(path, (db) => {
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
    return { version, tables };
  });
}

describe('SqliteStore only', () => {
  test('migrations bring a fresh file (in a folder that does not exist yet) to the current schema, once', async () => {
    await inTempDir(async (path) => {
      const store = new SqliteStore({ path });
      await writeCodes(store, [codeRow('x:A')]);
      await store.close();
      const schema = schemaOf(path);
      assert.equal(schema.version, SQLITE_MIGRATIONS.length);
      for (const name of ['settings', 'codes', 'changes', 'changes_by_date', 'codes_by_system']) assert.ok(schema.tables.includes(name), name);

      const reopened = new SqliteStore({ path });
      try {
        assert.deepEqual(schemaOf(path), schema, 'opening again applies nothing twice');
        assert.equal(await reopened.codeJson('x:A'), codeRow('x:A').json, 'data survives reopening');
      } finally {
        await reopened.close();
      }
    });
  });

  test('a new file is made with 16 KiB pages; a file made before keeps its 4 KiB pages and its data', async () => {
    const pageSize = (path: string) => readFile(path, (db) => Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size));
    await inTempDir(async (path) => {
      const store = new SqliteStore({ path });
      await writeCodes(store, [codeRow('x:A')]);
      await store.close();
      assert.equal(pageSize(path), NEW_FILE_PAGE_SIZE);
      assert.equal(NEW_FILE_PAGE_SIZE, 16_384);
    });
    await inTempDir(async (path) => {
      // A file made before: SQLite's default pages, in WAL mode; the store then migrates it and writes to it.
      mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path);
      db.exec('PRAGMA page_size = 4096');
      db.exec('PRAGMA journal_mode = WAL');
      db.close();
      const first = new SqliteStore({ path });
      await writeCodes(first, [codeRow('x:A')]);
      await first.close();
      assert.equal(pageSize(path), 4096);
      const reopened = new SqliteStore({ path });
      try {
        assert.equal(await reopened.codeJson('x:A'), codeRow('x:A').json);
        await writeCodes(reopened, [codeRow('x:B')]);
        assert.equal(await reopened.countCodes(), 2);
      } finally {
        await reopened.close();
      }
      assert.equal(pageSize(path), 4096, 'opening it again does not change its pages');
    });
  });

  test('a database from before the counter column was renamed keeps its limit counts', async () => {
    await inTempDir(async (path) => {
      // The schema as version 5 left it: the counter column was still called window.
      mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path);
      for (const migration of SQLITE_MIGRATIONS.slice(0, 5)) db.exec(migration as string);
      db.exec('PRAGMA user_version = 5');
      db.exec("INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES ('p', '[]', 10, 100, 1)");
      db.exec("INSERT INTO organisations (id, slug, plan, created_at) VALUES ('org_1', 'one', 'p', '2026-01-01T00:00:00.000Z')");
      db.exec("INSERT INTO limit_counters (org_id, window, count) VALUES ('org_1', 'month:2026-03', 42)");
      db.close();
      const store = new SqliteStore({ path });
      try {
        assert.equal(schemaOf(path).version, SQLITE_MIGRATIONS.length);
        assert.deepEqual(await store.usage.loadCounters('org_1', ['month:2026-03']), new Map([['month:2026-03', 42]]));
        assert.equal(await store.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 43 }], []), true);
        assert.deepEqual(await store.usage.loadCounters('org_1', ['month:2026-03']), new Map([['month:2026-03', 43]]));
      } finally {
        await store.close();
      }
    });
  });

  for (const mmapBytes of [undefined, 0]) {
    test(`two SqliteStore instances on one file see each other's commits at once (${mmapBytes === 0 ? 'pages read by system calls' : 'pages read through a memory map'})`, async () => {
      await inTempDir(async (path) => {
        const a = new SqliteStore({ path, mmapBytes });
        const b = new SqliteStore({ path, mmapBytes });
        try {
          const mapped = (store: SqliteStore) => Number((store.db.prepare('PRAGMA mmap_size').get() as { mmap_size: number }).mmap_size);
          assert.equal(mapped(b), mmapBytes ?? SQLITE_MMAP_MAX_BYTES);
          // b reads first, so its cached statements exist before a writes.
          assert.deepEqual(await pageAllCodes(b, NO_CODE_FILTERS, 5), []);
          assert.equal(await b.codeJson('x:A'), null);
          assert.equal(
            (await b.pageChanges({ after: null, limit: 5, system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null })).count,
            0,
          );
          await writeCodes(a, [codeRow('x:A')]);
          await writeChanges(a, [changeRow(1, 'x:A', '2024-01-01')]);
          assert.deepEqual(await pageAllCodes(b, NO_CODE_FILTERS, 5), ['x:A']);
          assert.equal(await b.codeJson('x:A'), codeRow('x:A').json);
          assert.equal(await b.codeExists('x:A'), true);
          assert.equal(await b.countCodes(), 1);
          assert.equal(
            (await b.pageChanges({ after: null, limit: 5, system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null })).count,
            1,
          );
          assert.equal(await a.ensureSetting('cursor_secret', 'from-a'), 'from-a');
          assert.equal(await b.ensureSetting('cursor_secret', 'from-b'), 'from-a');
          await writeCodes(b, [codeRow('x:B')]);
          assert.equal(await a.countCodes(), 2);
          // A record rewritten in place by the other connection: the mapped page must not be read stale.
          const revised = codeRow('x:A', 'retired', 'Display revised');
          await writeCodes(a, [revised]);
          assert.equal(await b.codeJson('x:A'), revised.json);
        } finally {
          await a.close();
          await b.close();
        }
      });
    });
  }

  test('an import holding the write lock makes a second withImport (another instance) wait, not fail', async () => {
    await inTempDir(async (path) => {
      const a = new SqliteStore({ path });
      const b = new SqliteStore({ path });
      try {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let holding!: () => void;
        const aHolds = new Promise<void>((resolve) => (holding = resolve));
        const first = a.withImport(async (tx) => {
          await tx.writeChanges([changeRow(1, 'x:A', '2024-01-01')]);
          holding();
          await released;
        });
        await aHolds;
        let secondRan = false;
        const second = b.withImport(async (tx) => {
          secondRan = true;
          return tx.nextChangeId();
        });
        await sleep(100);
        assert.equal(secondRan, false, 'the second import waits while the first holds the lock');
        release();
        await first;
        assert.equal(await second, 2, 'the second import runs after the first commits and sees its change');
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  test('while an import holds the write lock, another instance still reads, and gets a setting that is already kept', async () => {
    await inTempDir(async (path) => {
      const a = new SqliteStore({ path });
      await a.ensureSetting('cursor_secret', 'kept');
      await writeCodes(a, [codeRow('x:A')]);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const aHolds = new Promise<void>((resolve) => (holding = resolve));
      const first = a.withImport(async (tx) => {
        await tx.writeCodes([codeRow('x:B')]);
        holding();
        await released;
      });
      await aHolds;
      // What every process start does (createDeps): open, migrate, ensure the cursor secret.
      const b = new SqliteStore({ path });
      try {
        assert.equal(await b.ensureSetting('cursor_secret', 'other'), 'kept');
        assert.deepEqual(await pageAllCodes(b, NO_CODE_FILTERS, 5), ['x:A'], 'the uncommitted import is not visible');
      } finally {
        release();
        await first;
        await a.close();
        await b.close();
      }
    });
  });

  test('a withImport that cannot get the lock within importWaitMs fails with a clear message', async () => {
    await inTempDir(async (path) => {
      const a = new SqliteStore({ path });
      const b = new SqliteStore({ path, importWaitMs: 50 });
      try {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let holding!: () => void;
        const aHolds = new Promise<void>((resolve) => (holding = resolve));
        const first = a.withImport(async () => {
          holding();
          await released;
        });
        await aHolds;
        await assert.rejects(
          b.withImport(async () => 'never'),
          /another import held the import lock/,
        );
        release();
        await first;
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  test('an import in another process holding the write lock makes withImport wait for its commit', async () => {
    await inTempDir(async (path) => {
      const store = new SqliteStore({ path });
      const script = `
        import { DatabaseSync } from 'node:sqlite';
        const db = new DatabaseSync(process.argv[1]);
        db.exec('BEGIN IMMEDIATE');
        db.prepare("INSERT INTO changes (id, code_id, system, type, effective_date, json) VALUES (41, 'x:A', 'x', 'added', '2024-01-01', '{}')").run();
        process.stdout.write('locked\\n');
        process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, path], { stdio: ['pipe', 'pipe', 'inherit'] });
      try {
        await once(child.stdout, 'data');
        let ran = false;
        const waiting = store.withImport(async (tx) => {
          ran = true;
          return tx.nextChangeId();
        });
        await sleep(100);
        assert.equal(ran, false, 'withImport waits while the other process holds the lock');
        child.stdin.write('commit\n');
        assert.equal(await waiting, 42, "it runs after the other process's commit and sees it");
      } finally {
        child.kill();
        await store.close();
      }
    });
  });
});
