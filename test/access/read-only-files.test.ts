/**
 * The server's files made unwritable under a real server process
 * (helpers/unwritable.ts): a database or activity file that cannot be
 * written at start stops the server with one line, instead of a server that
 * serves and records nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { afterEach, describe, test } from 'node:test';
import { activityPath } from '../../src/store/sqlite/activity.ts';
import { childEnv } from '../helpers/cli.ts';
import { makeAllWritable, makeUnwritable, makeWritable, skipUnlessUnwritable } from '../helpers/unwritable.ts';
import { ROOT, serversOnOneFile } from './processes.ts';

const { dir, db, start } = serversOnOneFile('codebook-read-only-');
const skip = skipUnlessUnwritable(dir);

/** Starts a server on the file that is expected not to start, and waits for it to exit (at most 30 s). */
async function refusedStart(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['src/main.js'], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: `sqlite:${db}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

describe('a server whose files cannot be written', { skip }, () => {
  // A file left immutable by a failing test could not be removed, nor its folder.
  afterEach(makeAllWritable);

  test('an activity file or a database file that cannot be written at start stops the server with one line naming it', async () => {
    if (!existsSync(activityPath(db))) {
      // The files, as a first start makes them.
      const first = await start();
      first.child.kill('SIGTERM');
      assert.equal(await first.exited(), '0');
    }
    for (const [file, holds] of [
      [activityPath(db), /the usage counts, the limit counters, the request log/],
      [db, /its codes, keys, organisations/],
    ] as const) {
      makeUnwritable(file);
      const refused = await refusedStart();
      makeWritable(file);
      assert.equal(refused.code, 1);
      assert.doesNotMatch(refused.stdout, /Server listening/, 'it never listened');
      const lines = refused.stderr.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, `one line: ${refused.stderr}`);
      assert.ok(lines[0]!.startsWith(`codebook: cannot write ${file}: SQLite could open it only read-only`), lines[0]);
      assert.match(lines[0]!, holds);
      assert.match(lines[0]!, /give the user it runs as write access to the file, its -wal and -shm files and their folder, then start it again$/);
    }
    const again = await start();
    assert.equal(again.demoKey, null);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited(), '0');
  });
});
