/**
 * The server lock on PostgreSQL, with real processes: without Redis a server
 * counts the limits in its own memory, so a second server on the database
 * refuses to start, with one line that says why and what to do; servers with
 * the same Redis start together, and none of them beside a server without it.
 * PostgreSQL ends the lock with its session: after a kill -9 the next server
 * starts without any cleanup. A CLI without Redis beside servers with it
 * returns only once they have read its change from the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { codebookJson, runCodebook } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { deleteUnder, redisClient, runPrefix } from '../helpers/redis.ts';
import { REDIS_URL, skipUnlessBoth } from '../helpers/services.ts';
import { refusedStart, startServerWith, type ServerProcess } from './processes.ts';

function oneLine(refused: { code: number | null; stderr: string; stdout: string }): string {
  assert.equal(refused.code, 1);
  assert.doesNotMatch(refused.stdout, /Server listening/, 'it never listened');
  const lines = refused.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line: ${refused.stderr}`);
  return lines[0]!;
}

describe('one server per PostgreSQL database without Redis', { skip: await skipUnlessBoth() }, () => {
  let db: TestDatabase;
  const prefix = runPrefix('pg-lock');
  const servers: ServerProcess[] = [];
  const alone = () => ({ DATABASE_URL: db.url });
  const shared = () => ({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: prefix });
  const start = async (settings: Record<string, string>) => {
    const s = await startServerWith(settings);
    servers.push(s);
    return s;
  };
  const stopAll = async () => {
    for (const s of servers.splice(0)) {
      s.child.kill('SIGTERM');
      await s.exited();
    }
  };

  before(async () => {
    db = await createTestDatabase('codebook_pglock');
  });
  after(async () => {
    for (const s of servers) s.kill();
    await db?.drop();
    const client = redisClient();
    await deleteUnder(client, prefix);
    client.disconnect();
  });

  test('a second server without Redis refuses to start, saying why and what to do; the first keeps serving', async () => {
    const first = await start(alone());
    const line = oneLine(await refusedStart(alone()));
    assert.match(line, /^codebook: another server is already running on this PostgreSQL database/);
    assert.match(line, /each would enforce the limits alone/, 'why');
    assert.match(line, /give every instance the same REDIS_URL/, 'what to do');
    // Nor does a server with Redis start beside it: the first counts alone.
    assert.match(oneLine(await refusedStart(shared())), /^codebook: a server without REDIS_URL is running on this PostgreSQL database/);
    assert.equal((await fetch(`${first.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) })).status, 200);
  });

  test('after the server is killed with SIGKILL, the next one starts without any cleanup', async () => {
    const first = servers.splice(0)[0]!;
    first.child.kill('SIGKILL');
    assert.equal(await first.exited(), 'SIGKILL');
    // PostgreSQL ends the session, and its lock, once it sees the connection closed.
    const next = await start(alone());
    assert.equal((await fetch(`${next.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) })).status, 200);
    await stopAll();
  });

  test('servers with the same Redis start side by side, and a server without Redis does not start beside them', async () => {
    const [a, b] = await Promise.all([start(shared()), start(shared())]);
    for (const s of [a, b]) assert.equal((await fetch(`${s.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) })).status, 200);
    assert.match(oneLine(await refusedStart(alone())), /^codebook: another server is already running on this PostgreSQL database/);

    // A CLI run without REDIS_URL cannot tell them through Redis: it waits until they have read its change from
    // PostgreSQL, says so, and the revoked key is refused by the next request to either instance.
    const cli = (args: string[], settings: Record<string, string>) => runCodebook(args, { settings });
    assert.equal((await cli(['orgs', 'create', 'told', '--plan', 'pro'], shared())).code, 0);
    const { key, id } = await codebookJson<{ key: string; id: string }>(['keys', 'create', '--org', 'told'], { settings: shared() });
    const status = async (s: ServerProcess) =>
      (await fetch(`${s.baseUrl}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) })).status;
    assert.deepEqual([await status(a), await status(b)], [200, 200], 'each instance holds the lookup');
    const revoked = await cli(['keys', 'revoke', id], alone());
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual([await status(a), await status(b)], [401, 401], 'refused by the next request to each instance');
    assert.match(revoked.stderr, /this process was not given REDIS_URL \(set it as they do\): waiting 1500 ms/);

    // Once they stop, a server without Redis may run alone.
    await stopAll();
    await start(alone());
    await stopAll();
  });
});
