/**
 * `codebook backup FILE`: a consistent copy of the SQLite database taken
 * while another connection is in the middle of writing, usable as a database
 * on its own; it never overwrites a file.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { runCodebook } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

let dir: string;
let dbPath: string;
before(() => {
  dir = tempDir('codebook-backup-');
  dbPath = join(dir, 'codebook.db');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const codebook = (databaseUrl: string, ...args: string[]) =>
  runCodebook(args, { cwd: dir, settings: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, timeoutMs: 60_000 });

async function codeIds(path: string): Promise<string[]> {
  const store = new SqliteStore({ path });
  try {
    const page = await store.pageCodes({ after: null, limit: 1000, system: null, status: null });
    return (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((c) => c.id);
  } finally {
    await store.close();
  }
}

test('copies every committed record, and nothing of a transaction still open, while it is open', async () => {
  writeFileSync(join(dir, 'a.csv'), 'code,display\nA,Alpha\nB,Beta\n');
  assert.equal((await codebook(`sqlite:${dbPath}`, 'import', 'a.csv', '--system', 't', '--release', 'r1', '--effective-date', '2024-01-01')).code, 0);
  assert.equal((await codebook(`sqlite:${dbPath}`, 'orgs', 'create', 'acme', '--plan', 'free')).code, 0);

  // Another process is in the middle of a write: WAL mode, the lock held, the row not committed.
  const writer = new DatabaseSync(dbPath);
  writer.exec('PRAGMA busy_timeout = 5000');
  writer.exec('BEGIN IMMEDIATE');
  writer.exec(`INSERT INTO settings (key, value) VALUES ('uncommitted', 'x')`);
  try {
    const run = await codebook(`sqlite:${dbPath}`, 'backup', 'copy.db', '--json');
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { file: string; bytes: number };
    assert.equal(result.file, join(dir, 'copy.db'));
    assert.ok(result.bytes > 0);
  } finally {
    writer.exec('COMMIT');
    writer.close();
  }

  const copy = join(dir, 'copy.db');
  assert.deepEqual(await codeIds(copy), ['t:A', 't:B']);
  const inCopy = new DatabaseSync(copy, { readOnly: true });
  try {
    assert.equal(inCopy.prepare(`SELECT count(*) AS n FROM settings WHERE key = 'uncommitted'`).get()!.n, 0);
    assert.equal(inCopy.prepare('PRAGMA integrity_check').get()!.integrity_check, 'ok');
  } finally {
    inCopy.close();
  }
  // The copy is a database of its own: the CLI works on it as on the original.
  const orgs = await codebook(`sqlite:${copy}`, 'orgs', 'list', '--json');
  assert.equal(orgs.code, 0, orgs.stderr);
  assert.deepEqual(
    (JSON.parse(orgs.stdout) as { slug: string }[]).map((o) => o.slug),
    ['acme'],
  );
});

test('never overwrites a file, and says where a folder is missing', async () => {
  const existing = join(dir, 'existing.db');
  writeFileSync(existing, 'an older backup');
  const refused = await codebook(`sqlite:${dbPath}`, 'backup', existing);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, `codebook: ${existing} already exists; name a new file\n`);
  const missing = await codebook(`sqlite:${dbPath}`, 'backup', join(dir, 'nope', 'x.db'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^codebook: no such folder: .*nope\n$/);
  assert.equal(existsSync(join(dir, 'nope')), false);
  // The copy's activity file is never replaced either, and nothing is written beside it.
  writeFileSync(join(dir, 'half.db.activity'), 'an older backup');
  const besideTaken = await codebook(`sqlite:${dbPath}`, 'backup', 'half.db');
  assert.equal(besideTaken.code, 1);
  assert.equal(besideTaken.stderr, `codebook: ${join(dir, 'half.db.activity')} already exists; name a new file\n`);
  assert.equal(existsSync(join(dir, 'half.db')), false);
  const usage = await codebook(`sqlite:${dbPath}`, 'backup');
  assert.equal(usage.code, 2);
});

test("copies the server's bookkeeping too: the usage, in the copy's activity file", async () => {
  const store = new SqliteStore({ path: dbPath });
  try {
    const org = (await store.access.getOrg('acme'))!;
    await store.access.insertKey({
      id: 'key_b',
      orgId: org.id,
      hash: 'hb',
      displayPrefix: 'svc_live_bbbb',
      name: 'b',
      mode: 'live',
      createdAt: '2026-03-01T00:00:00.000Z',
    });
    assert.equal(await store.usage.addUsage([{ keyId: 'key_b', day: '2026-03-15', outcome: 'ok', count: 12 }], new Map()), true);
  } finally {
    await store.close();
  }
  const run = await codebook(`sqlite:${dbPath}`, 'backup', 'with-usage.db', '--json');
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { files_beside: { file: string; bytes: number }[] };
  assert.deepEqual(
    result.files_beside.map((f) => f.file),
    [join(dir, 'with-usage.db.activity')],
  );
  const copy = new SqliteStore({ path: join(dir, 'with-usage.db') });
  try {
    const org = (await copy.access.getOrg('acme'))!;
    assert.deepEqual(
      (await copy.usage.usageByDay(org.id, '2026-03')).map((u) => u.count),
      [12],
    );
  } finally {
    await copy.close();
  }
});

test('on PostgreSQL it points at pg_dump', { skip: await skipUnlessPostgres() }, async () => {
  const db = await createTestDatabase('codebook_backup');
  try {
    const run = await codebook(db.url, 'backup', 'pg.db');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^codebook: codebook backup copies an SQLite database; back PostgreSQL up with .*pg_dump/);
    assert.equal(existsSync(join(dir, 'pg.db')), false);
  } finally {
    await db.drop();
  }
});
