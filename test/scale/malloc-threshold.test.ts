/**
 * With the reader thread's pages on (SQLITE_PAGES_ON_THREAD=1), the server
 * process fixes glibc's mmap threshold for itself (src/main.js): the thread's
 * page buffers are then never kept in malloc's arenas, whoever starts the
 * server and however. It starts itself again in place, so its process id,
 * Node.js flags, arguments and settings stay what the caller gave it.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT, startServerWith } from '../access/processes.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { tempDir } from '../helpers/context.ts';

const skip = process.platform !== 'linux' ? 'Linux only (/proc)' : typeof process.execve !== 'function' ? 'this Node.js has no process.execve' : false;
const dir = tempDir('codebook-malloc-');
after(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  env: Map<string, string>;
  argv: string[];
}

/** The server's environment and command line as the kernel holds them for its process id, once it answers. */
async function serverProcess(settings: Record<string, string>, nodeFlags: string[] = []): Promise<Seen> {
  const server = await startServerWith({ DATABASE_URL: `sqlite:${dir}/codebook.db`, ...settings }, 30_000, nodeFlags);
  try {
    const health = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    const read = (file: string) => readFileSync(`/proc/${server.child.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
    const env = new Map(read('environ').map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    return { env, argv: read('cmdline') };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited();
  }
}

test(
  "a server on an SQLite file with pages on the reader thread runs with glibc's mmap threshold fixed at 128 KiB, its flags and settings kept",
  { skip },
  async () => {
    const seen = await serverProcess({ SQLITE_PAGES_ON_THREAD: '1', READ_CACHE_MB: '8' }, ['--max-semi-space-size=8']);
    assert.equal(seen.env.get('MALLOC_MMAP_THRESHOLD_'), '131072');
    assert.equal(seen.env.get('READ_CACHE_MB'), '8');
    assert.deepEqual(seen.argv.slice(1), ['--max-semi-space-size=8', join(ROOT, 'src/main.js')]);
  },
);

test('a threshold the operator set is kept as it is', { skip }, async () => {
  const seen = await serverProcess({ SQLITE_PAGES_ON_THREAD: '1', MALLOC_MMAP_THRESHOLD_: '65536' });
  assert.equal(seen.env.get('MALLOC_MMAP_THRESHOLD_'), '65536');
});

test('with pages on the event loop (the default, or SQLITE_PAGES_ON_THREAD=0) the process is left as it was started', { skip }, async () => {
  for (const settings of [{}, { SQLITE_PAGES_ON_THREAD: '0' }] as Record<string, string>[]) {
    const seen = await serverProcess(settings);
    assert.equal(seen.env.has('MALLOC_MMAP_THRESHOLD_'), false, JSON.stringify(settings));
  }
});

test('a server on PostgreSQL, which has no reader thread, is left as it was started', { skip: skip || (await skipUnlessPostgres()) }, async () => {
  const db = await createTestDatabase();
  try {
    const seen = await serverProcess({ DATABASE_URL: db.url, SQLITE_PAGES_ON_THREAD: '1' });
    assert.equal(seen.env.has('MALLOC_MMAP_THRESHOLD_'), false);
  } finally {
    await db.drop();
  }
});
