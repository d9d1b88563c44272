/**
 * A server started where its SQLite files cannot be opened or created stops
 * with one line that names the file and why, as the other start-up problems
 * do, never a stack trace: a folder it cannot write (chmod 0555), a path that
 * runs through a regular file. Real processes on real folders. Root writes
 * into a folder whatever its mode, so as root the server is run as the user
 * nobody for the folder's case.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { refusedStart, ROOT, runCli, type RefusedStart } from './processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'codebook-unwritable-'));
// Another user must reach the folders inside (mkdtemp makes it 0700).
chmodSync(dir, 0o755);
after(() => {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o755);
  rmSync(dir, { recursive: true, force: true });
});

const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;
/** The user to run the server as for a folder's mode to count: this one, or nobody when this one is root (and nobody can read the code). */
function folderModeUser(): { uid?: number; gid?: number } | null {
  if (process.platform === 'win32') return null;
  if (!isRoot) return {};
  const probe = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(join(ROOT, 'src', 'server.ts'))})`], { ...NOBODY });
  return probe.status === 0 ? NOBODY : null;
}
const user = folderModeUser();

function oneLine(run: RefusedStart): string {
  assert.equal(run.code, 1, `exit code; stderr: ${run.stderr}`);
  assert.equal(run.stdout, '', 'it never listened');
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line, no stack trace: ${run.stderr}`);
  assert.doesNotMatch(lines[0]!, /Error:|failed to start/);
  return lines[0]!;
}

test(
  'a folder the server cannot write: one line naming the file it could not create and the folder',
  { skip: user === null && 'no other user to run the server as' },
  async () => {
    const folder = join(dir, 'read-only');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    const db = join(folder, 'codebook.db');
    const line = oneLine(await refusedStart({ DATABASE_URL: `sqlite:${db}` }, user!));
    assert.equal(
      line.replace(/uid \d+/, 'uid N'),
      `codebook: cannot open or create ${db}.server-lock: the folder ${folder} is not writable by this process, which runs as uid N (DATABASE_URL)`,
    );
    assert.deepEqual(readdirSync(folder), [], 'nothing was written there');
  },
);

test('a database path through a regular file: one line naming it, from the server and from the CLI', async () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder');
  for (const db of [join(file, 'codebook.db'), join(file, 'data', 'codebook.db')]) {
    const line = oneLine(await refusedStart({ DATABASE_URL: `sqlite:${db}` }));
    assert.equal(line, `codebook: cannot open or create ${db}.server-lock: ${file} is a file, not a folder (DATABASE_URL)`);
    const cli = await runCli(db, ['orgs', 'list']);
    assert.equal(cli.code, 1);
    assert.equal(cli.stderr, `codebook: cannot open or create ${db}: ${file} is a file, not a folder (DATABASE_URL)\n`);
  }
});
