/**
 * `codebook import` runs in a child with a bounded V8 heap (src/cli/bounded-heap.ts):
 * which commands are relaunched, and that the relaunch is invisible to the
 * operator, signals included.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { boundedHeapArgs, IMPORT_HEAP_FLAGS } from '../../src/cli/bounded-heap.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { BIN, childEnv, runCodebook } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

test('only an import is relaunched, and not when the operator chose the heap or it already runs in the child', () => {
  assert.deepEqual(boundedHeapArgs(['import', 'f.csv'], [], {}), IMPORT_HEAP_FLAGS);
  assert.equal(boundedHeapArgs(['keys', 'list'], [], {}), null);
  assert.equal(boundedHeapArgs([], [], {}), null);
  assert.equal(boundedHeapArgs(['import'], [], { CODEBOOK_BOUNDED_HEAP: '1' }), null);
  assert.equal(boundedHeapArgs(['import'], [], { NODE_OPTIONS: '--max-old-space-size=4096' }), null);
  assert.equal(boundedHeapArgs(['import'], ['--max-semi-space-size=64'], {}), null);
});

test('an import through the relaunch prints and exits as before: a refused file exits 1 with its problems', async () => {
  const db = join(dir, 'refused.db');
  const file = join(dir, 'bad.csv');
  writeFileSync(file, 'code,display,status\nA,Alpha,active\nA,Again,active\n');
  const run = await runCodebook(['import', file, '--system', 'x', '--release', 'r1', '--effective-date', '2024-01-01'], {
    settings: { DATABASE_URL: `sqlite:${db}` },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /appears again/);
});

/** `codebook import` of 300 000 rows into DB, started; resolves 1.5 s in, while it reads (the whole takes ~10 s). */
async function startBigImport(db: string, tmp: string) {
  const file = join(dir, 'big.csv');
  if (!existsSync(file)) {
    const lines = ['code,display,status'];
    for (let i = 0; i < 300_000; i++) lines.push(`C${i},Code number ${i},active`);
    writeFileSync(file, `${lines.join('\n')}\n`);
  }
  mkdirSync(tmp, { recursive: true });
  const child = spawn(process.execPath, [BIN, 'import', file, '--system', 'big', '--release', 'r1', '--effective-date', '2024-01-01'], {
    env: childEnv({ DATABASE_URL: `sqlite:${db}`, TMPDIR: tmp }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // The pipes close once every process writing to them has: the CLI and the child it relaunched.
  const closed = once(child.stderr, 'close');
  // Not its first line of progress: off a terminal there is none in the first ten seconds. An import done
  // before the signal would fail the checks that nothing was imported, not pass them.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return { child, exited, closed, stderr: () => stderr };
}

/** The import scratch folders in TMP (Node keeps its compile cache there too). */
const scratchIn = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('codebook-import-'));

/** Nothing of the stopped import is stored, and the import lock is free: a small import goes through at once. */
async function assertNothingImported(db: string): Promise<void> {
  const small = join(dir, 'small.csv');
  writeFileSync(small, 'code,display,status\nA,Alpha,active\n');
  const next = await runCodebook(['import', small, '--system', 'small', '--release', 'r1', '--effective-date', '2024-01-01'], {
    settings: { DATABASE_URL: `sqlite:${db}` },
    timeoutMs: 20_000,
  });
  assert.equal(next.code, 0, next.stderr);
  const store = new SqliteStore({ path: db });
  try {
    assert.equal(await store.countCodes(), 1, 'only the small import is stored');
  } finally {
    await store.close();
  }
}

test('SIGTERM to the CLI stops the import in its child: the CLI dies of the signal, nothing is imported or left in TMPDIR, the lock is free', async () => {
  const db = join(dir, 'stopped.db');
  const tmp = join(dir, 'tmp-term');
  const run = await startBigImport(db, tmp);
  run.child.kill('SIGTERM');
  // As below, no bound in seconds: a child the signal did not reach would have committed before it exits.
  const { code, signal } = await run.exited;
  assert.equal(signal, 'SIGTERM', `exit ${code}: ${run.stderr()}`);
  await run.closed;
  assert.deepEqual(scratchIn(tmp), [], 'the import’s scratch file is gone');
  await assertNothingImported(db);
});

test('kill -9 of the CLI stops the import in its child too: nothing is imported or left in TMPDIR', async () => {
  const db = join(dir, 'killed.db');
  const tmp = join(dir, 'tmp-kill');
  const run = await startBigImport(db, tmp);
  run.child.kill('SIGKILL');
  assert.equal((await run.exited).signal, 'SIGKILL');
  // No bound in seconds (the child notices at its next progress tick, which a loaded machine delays): a child
  // that went on would have committed the import by the time it exits, and the check below would see it.
  await run.closed;
  assert.deepEqual(scratchIn(tmp), [], 'the import’s scratch file is gone');
  await assertNothingImported(db);
});
