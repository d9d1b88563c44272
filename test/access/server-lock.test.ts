/**
 * One server per SQLite file, with real processes: a second server on the
 * same file refuses to start with one line that says why and what to do; the
 * operating system releases the lock when the first one dies, so a server
 * started after a kill -9 runs without any cleanup; and the CLI keeps working
 * beside a running server (it does not take the lock).
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliJson, refusedStart, runCli, serversOnOneFile, type ServerProcess } from './processes.ts';

const { dir, db, servers, start } = serversOnOneFile('codebook-lock-');

async function get(s: ServerProcess, path: string, key: string): Promise<number> {
  const res = await fetch(`${s.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return res.status;
}

test('a second server on the same file refuses to start, saying why and what to do; the first one keeps serving', async () => {
  const first = await start();
  assert.ok(first.demoKey);
  const second = await refusedStart({ DATABASE_URL: `sqlite:${db}` });
  assert.equal(second.code, 1);
  assert.equal(second.stdout, '', 'it never listened');
  const lines = second.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line: ${second.stderr}`);
  assert.match(lines[0]!, /^codebook: another server is already running on .*codebook\.db \(it holds .*codebook\.db\.server-lock\)/);
  assert.match(lines[0]!, /each enforce the limits alone/, 'why');
  assert.match(lines[0]!, /Stop it first, or run several instances on PostgreSQL and Redis/, 'what to do');
  assert.equal(await get(first, '/v1/codes?limit=1', first.demoKey), 200);
});

test('CLI commands work beside the running server: an import is served at once, a revocation holds on the next request', async () => {
  const server = servers[0]!;
  const csv = join(dir, 'lock.csv');
  writeFileSync(csv, 'code,display\nA,Alpha\n');
  const imported = await runCli(db, ['import', csv, '--system', 'locktest', '--release', 'r1', '--effective-date', '2099-01-01', '--mode', 'delta']);
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(await get(server, '/v1/codes/locktest:A', server.demoKey!), 200, 'the import is served by the running server');

  const keys = await cliJson<{ id: string; display_prefix: string }[]>(db, ['keys', 'list', '--org', 'demo']);
  const demo = keys.find((k) => server.demoKey!.startsWith(k.display_prefix))!;
  const revoked = await runCli(db, ['keys', 'revoke', demo.id]);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal(await get(server, '/v1/codes?limit=1', server.demoKey!), 401);
});

test('after the server is killed with SIGKILL, a new one starts on the same file without any cleanup', async () => {
  const first = servers[0]!;
  first.child.kill('SIGKILL');
  assert.equal(await first.exited(), 'SIGKILL');
  assert.ok(existsSync(`${db}.server-lock`), 'the lock file is still there: only its lock died with the process');
  const next = await start();
  const health = await fetch(`${next.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(health.status, 200);
  const { key } = await cliJson<{ key: string }>(db, ['keys', 'create', '--org', 'demo', '--name', 'after-crash']);
  assert.equal(await get(next, '/v1/codes/locktest:A', key), 200);
  // And it holds the lock in turn.
  assert.equal((await refusedStart({ DATABASE_URL: `sqlite:${db}` })).code, 1);
});
