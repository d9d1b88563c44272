/**
 * `codebook backup FILE`: a consistent copy of the SQLite database taken
 * while another connection is in the middle of writing, usable as a database
 * on its own; it never overwrites a file, and a run killed in the middle
 * leaves nothing under the name it was given.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { BIN, childEnv, runCodebook } from '../helpers/cli.ts';
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

test('a database file that is not there (a mistyped DATABASE_URL) is refused, not created empty and backed up', async () => {
  const absent = join(dir, 'typo.db');
  const run = await codebook(`sqlite:${absent}`, 'backup', 'of-nothing.db');
  assert.equal(run.code, 1);
  assert.equal(run.stderr, `codebook: no database at ${absent} (DATABASE_URL): nothing to back up\n`);
  assert.equal(run.stdout, '');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('typo.db') || f.startsWith('of-nothing.db')),
    [],
  );
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

test('killed with SIGKILL in the middle of a copy: nothing under the name asked for, and a backup to that name then succeeds', async () => {
  // A database of ~100 MB, whose copy takes a good while after the first of its files appears.
  const bigDir = join(dir, 'big');
  mkdirSync(bigDir);
  const big = join(bigDir, 'codebook.db');
  await new SqliteStore({ path: big }).close();
  const fill = new DatabaseSync(big);
  try {
    fill.exec('CREATE TABLE padding (bytes BLOB)');
    fill.exec('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO padding SELECT randomblob(1048576) FROM n');
  } finally {
    fill.close();
  }
  const copyFiles = () => readdirSync(bigDir).filter((name) => name.startsWith('copy.db'));

  const child = spawn(process.execPath, [BIN, 'backup', 'copy.db'], {
    cwd: bigDir,
    env: childEnv({ DATABASE_URL: `sqlite:${big}`, LOG_LEVEL: 'silent' }),
    stdio: 'ignore',
  });
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  try {
    // Killed as soon as the copy's first file appears, whatever its name.
    for (const deadline = Date.now() + 30_000; copyFiles().length === 0; await sleep(2)) {
      assert.ok(Date.now() < deadline, 'the backup wrote no file within 30 s');
    }
    child.kill('SIGKILL');
    assert.equal((await exited)[1], 'SIGKILL', 'killed before it finished');
  } finally {
    child.kill('SIGKILL');
  }
  const left = copyFiles();
  assert.ok(!left.includes('copy.db') && !left.includes('copy.db.activity'), `nothing under the names asked for; left: ${left.join(', ')}`);
  for (const name of left) assert.match(name, /^copy\.db(\.activity)?\.partial-\d+(-journal)?$/, 'what is left is named as partial');

  const again = await codebook(`sqlite:${big}`, 'backup', join(bigDir, 'copy.db'));
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(copyFiles().sort(), ['copy.db', 'copy.db.activity'], "the killed run's partial files are cleaned up");
  const copy = new DatabaseSync(join(bigDir, 'copy.db'), { readOnly: true });
  try {
    assert.equal(copy.prepare('PRAGMA integrity_check').get()!.integrity_check, 'ok');
    assert.equal(copy.prepare('SELECT count(*) AS n FROM padding').get()!.n, 100);
  } finally {
    copy.close();
  }
});

test('a partial copy left by a process that still runs is left alone', async () => {
  // This test's parent process runs for as long as the test does.
  const running = join(dir, `alive.db.partial-${process.ppid}`);
  writeFileSync(running, 'another backup, still being written');
  const run = await codebook(`sqlite:${dbPath}`, 'backup', 'alive.db');
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(running, 'utf8'), 'another backup, still being written');
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
