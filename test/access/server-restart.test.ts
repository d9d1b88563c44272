/**
 * The real server process: the demo key printed once on an empty database,
 * usage counts that survive a graceful stop exactly and a `kill -9` up to the
 * last second (read back with `codebook usage --json`), and logs without keys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliJson, serversOnOneFile, type ServerProcess } from './processes.ts';

const { db, start } = serversOnOneFile('codebook-restart-');

interface Usage {
  counted: number;
  byOutcome: Record<string, number>;
}

async function send(s: ServerProcess, key: string, path: string): Promise<Response> {
  const res = await fetch(`${s.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return res;
}

function monthRemaining(res: Response): number {
  const m = /"month";r=(\d+);/.exec(res.headers.get('ratelimit') ?? '');
  assert.ok(m, `no month in RateLimit: ${res.headers.get('ratelimit')}`);
  return Number(m[1]);
}

test('usage survives a graceful stop exactly and kill -9 up to the last second', async () => {
  const month = new Date().toISOString().slice(0, 7);
  const usage = () => cliJson<Usage>(db, ['usage', '--org', 'demo', '--month', month]);

  // First start, empty database: the demo organisation and its key, printed once.
  const first = await start();
  const key = first.demoKey;
  assert.ok(key, `no demo key on the first start:\n${first.output()}`);
  for (let i = 1; i <= 10; i++) {
    const res = await send(first, key, '/v1/codes?limit=1');
    assert.equal(res.status, 200);
    assert.equal(monthRemaining(res), 1_000_000 - i);
  }
  assert.equal((await send(first, key, '/v1/codes/iso4217:NOPE')).status, 404);
  assert.equal((await send(first, key, `/v1/codes?api_key=${key}`)).status, 400);
  first.child.kill('SIGTERM');
  assert.equal(await first.exited(), '0');

  // The key reached no log line (it is only in the banner).
  const logLines = first
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'));
  assert.ok(
    logLines.some((l) => l.includes('"statusCode":400')),
    'the requests were not logged',
  );
  assert.equal(
    logLines.find((l) => l.includes(key.slice(9))),
    undefined,
  );

  // Graceful stop: nothing lost, nothing invented (the 400 counts toward nothing).
  const afterStop = await usage();
  assert.equal(afterStop.counted, 11);
  assert.deepEqual(afterStop.byOutcome, { ok: 10, client_error: 1 });

  // Second start: no new demo key; the month continues; then kill -9 after more than a second.
  const second = await start();
  assert.equal(second.demoKey, null);
  assert.ok(!second.output().includes(key.slice(9)), 'the key was printed again');
  for (let i = 1; i <= 15; i++) {
    const res = await send(second, key, '/v1/codes?limit=1');
    assert.equal(res.status, 200);
    assert.equal(monthRemaining(res), 1_000_000 - 11 - i);
  }
  // Counts are written every second: after 2 s none may be lost.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  second.child.kill('SIGKILL');
  assert.equal(await second.exited(), 'SIGKILL');
  const afterKill = await usage();
  assert.equal(afterKill.counted, 26);
  assert.deepEqual(afterKill.byOutcome, { ok: 25, client_error: 1 });

  // Third start continues from there.
  const third = await start();
  const res = await send(third, key, '/v1/codes?limit=1');
  assert.equal(res.status, 200);
  assert.equal(monthRemaining(res), 1_000_000 - 27);
  third.child.kill('SIGTERM');
  assert.equal(await third.exited(), '0');
  assert.equal((await usage()).counted, 27);
});
