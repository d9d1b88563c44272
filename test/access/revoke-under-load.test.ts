/**
 * Revocation under load, against a real server process on 127.0.0.1: while
 * a bounded load runs with a key, the CLI revokes it in another process. No
 * request sent after the CLI returned may be accepted, though the server
 * checks for other processes' commits only once per freshness window (SQLite)
 * or learns of them through Redis (PostgreSQL + Redis). On SQLite the load
 * asks for a list page and for a record by its id, which the express lane
 * answers (express-lane.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { codebookJson, runCodebook } from '../helpers/cli.ts';
import { createCluster, type Cluster } from '../helpers/cluster.ts';
import { skipUnlessBoth } from '../helpers/services.ts';
import { startServerWith, type ServerProcess } from './processes.ts';
import { expressLaneCount } from '../helpers/express-lane.ts';

const CONNECTIONS = 8;
/** Bounds of the load: it stops at whichever comes first once the CLI returned (a busy machine sends fewer in a given time). */
const AFTER_REVOKE_REQUESTS = 400;
const AFTER_REVOKE_MS = 15_000;
const MAX_REQUESTS = 30_000;

interface Sent {
  at: number;
  status: number;
}

/**
 * Runs CONNECTIONS request loops against the URLs with the key, revokes it
 * with the CLI once the load is under way, and returns every request's send
 * time and status beside the moment the CLI was seen to return.
 */
async function revokeUnderLoad(
  urls: string[],
  key: string,
  revoke: () => Promise<void>,
  paths = ['/v1/codes?limit=1'],
): Promise<{ sent: Sent[]; returnedAt: number }> {
  const sent: Sent[] = [];
  let returnedAt = Number.POSITIVE_INFINITY;
  let stop = false;
  let afterwards = 0;
  const loop = async (n: number) => {
    for (let i = 0; !stop && sent.length < MAX_REQUESTS; i++) {
      const at = performance.now();
      const res = await fetch(`${urls[(n + i) % urls.length]}${paths[(n + i) % paths.length]}`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      sent.push({ at, status: res.status });
      if (at > returnedAt && ++afterwards >= AFTER_REVOKE_REQUESTS) stop = true;
      if (performance.now() - returnedAt > AFTER_REVOKE_MS) stop = true;
    }
  };
  const loops = Array.from({ length: CONNECTIONS }, (_, n) => loop(n));
  try {
    while (sent.length < 300) await sleep(10);
    await revoke();
    returnedAt = performance.now();
    await Promise.all(loops);
  } finally {
    stop = true;
    await Promise.allSettled(loops);
  }
  return { sent, returnedAt };
}

function assertNoneAcceptedAfter({ sent, returnedAt }: { sent: Sent[]; returnedAt: number }): void {
  const before = sent.filter((s) => s.at < returnedAt);
  const afterwards = sent.filter((s) => s.at > returnedAt);
  assert.ok(Number.isFinite(returnedAt), 'the CLI returned');
  assert.deepEqual(
    [...new Set(sent.map((s) => s.status))].filter((s) => s !== 200 && s !== 401),
    [],
    'only 200 or 401',
  );
  assert.ok(before.filter((s) => s.status === 200).length >= 300, `the load ran with the key before the revocation (${before.length} requests)`);
  assert.ok(afterwards.length >= 100, `the load went on after the CLI returned (${afterwards.length} requests)`);
  assert.equal(afterwards.filter((s) => s.status === 200).length, 0, `requests accepted after the CLI returned, of ${afterwards.length}`);
}

describe('revoking from the CLI under load, SQLite: a real server process on the file', () => {
  let server: ServerProcess | null = null;
  let dir = '';
  after(() => {
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('no request sent after `keys revoke` returned is accepted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'codebook-revoke-load-'));
    const settings = { DATABASE_URL: `sqlite:${join(dir, 'codebook.db')}` };
    // With the demo data: a record by its id is answered by the express lane once the key is cached.
    server = await startServerWith(settings);
    await codebookJson(
      ['plans', 'set', 'load', '--endpoints', 'codes.list,codes.get', '--rate-per-minute', '1000000', '--monthly-quota', 'unlimited', '--json'],
      { settings },
    );
    await codebookJson(['orgs', 'create', 'load', '--plan', 'load', '--json'], { settings });
    const created = await codebookJson<{ id: string; key: string }>(['keys', 'create', '--org', 'load', '--json'], { settings });
    const result = await revokeUnderLoad(
      [server.baseUrl],
      created.key,
      async () => {
        const run = await runCodebook(['keys', 'revoke', created.id], { settings });
        assert.equal(run.code, 0, run.stderr);
      },
      ['/v1/codes?limit=1', '/v1/codes/iso4217:EUR'],
    );
    assertNoneAcceptedAfter(result);
    assert.ok((await expressLaneCount(server.baseUrl)) > 0, 'the express lane answered part of the load');
  });
});

const skip = await skipUnlessBoth();

describe('revoking from the CLI under load, PostgreSQL + Redis: a real server process and an instance in this process', { skip }, () => {
  let cluster: Cluster | null = null;
  let server: ServerProcess | null = null;
  after(async () => {
    server?.kill();
    await server?.exited().catch(() => undefined);
    await cluster?.close();
  });

  test('no request sent after `keys revoke` returned is accepted by either', async () => {
    cluster = await createCluster('revokeload');
    const instance = await cluster.instance();
    const { key, keyId } = await cluster.customer('load', { ratePerMinute: 1_000_000, monthlyQuota: null });
    server = await startServerWith(cluster.env);
    const result = await revokeUnderLoad([server.baseUrl, instance.url], key, async () => {
      const run = await runCodebook(['keys', 'revoke', keyId], { settings: cluster!.env });
      assert.equal(run.code, 0, run.stderr);
    });
    assertNoneAcceptedAfter(result);
  });
});
