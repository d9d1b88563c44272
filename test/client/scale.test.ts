/**
 * The client against the scaled-out service: two instances on one PostgreSQL
 * and one Redis. A walk whose pages alternate between the instances (a
 * round-robin fetch, as a load balancer would spread them) yields every record
 * once, in order; the follower does the same; a 503 while PostgreSQL is out of
 * reach is retried after its Retry-After and succeeds once it is back.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Codebook, type Change } from '../../clients/typescript/src/index.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';
import { skipUnlessBoth } from '../helpers/services.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { codeRows, recordingFetch } from './server.ts';

const skip = await skipUnlessBoth();

describe('the client against two instances on PostgreSQL and Redis', { skip }, () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  let key: string;
  const dir = tempDir('codebook-client-scale-');

  before(async () => {
    cluster = await createCluster('client');
    a = await cluster.instance();
    b = await cluster.instance();
    ({ key } = await cluster.customer('client', { ratePerMinute: 1_000_000, monthlyQuota: null }));
    await importRowsInto(a.deps.store, dir, codeRows(95), { system: 'alpha', release: 'r1', effectiveDate: '2024-01-01' });
    await importRowsInto(
      b.deps.store,
      dir,
      codeRows(20, (i) => `Revised ${i}`),
      { system: 'alpha', release: 'r2', effectiveDate: '2024-02-01' },
    );
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await cluster?.close();
  });

  /** A fetch that sends request i to instance i % 2, whatever the client's base URL. */
  function roundRobin() {
    const recorder = recordingFetch();
    let next = 0;
    const hosts: string[] = [];
    const fetch = (url: string, init: RequestInit) => {
      const target = [a, b][next++ % 2]!;
      const rewritten = new URL(url);
      const origin = new URL(target.url);
      rewritten.host = origin.host;
      hosts.push(origin.host);
      return recorder.fetch(rewritten.toString(), init);
    };
    return { fetch, hosts, sent: recorder.sent };
  }

  test('codes: every page on the other instance, every record once, in order', async () => {
    const spread = roundRobin();
    const client = new Codebook({ apiKey: key, baseUrl: a.url, fetch: spread.fetch });
    const ids: string[] = [];
    for await (const code of client.codes.list({ limit: 20 })) ids.push(code.id);
    assert.deepEqual(
      ids,
      codeRows(95).map((r) => `alpha:${r.code}`),
    );
    assert.equal(spread.sent.length, 5);
    assert.deepEqual(new Set(spread.hosts).size, 2);
    assert.ok(spread.sent.every((s) => s.status === 200));
  });

  test('changes: the follower alternates too, and yields each change once', async () => {
    const spread = roundRobin();
    const client = new Codebook({ apiKey: key, baseUrl: a.url, fetch: spread.fetch });
    const controller = new AbortController();
    const follower = client.changes.follow({ limit: 30, pollIntervalMs: 20, maxPollIntervalMs: 50, signal: controller.signal });
    const seen: Change[] = [];
    for await (const change of follower) {
      seen.push(change);
      if (seen.length === 115) break;
    }
    const more = client.changes.follow({ since: follower.position, limit: 30, pollIntervalMs: 20, maxPollIntervalMs: 50, signal: controller.signal });
    const done = (async () => {
      for await (const change of more) seen.push(change);
    })();
    await importRowsInto(b.deps.store, dir, [{ code: 'NEW', display: 'new' }], { system: 'alpha', release: 'r3', effectiveDate: '2024-03-01' });
    for (const started = Date.now(); seen.length < 116; await sleep(10)) assert.ok(Date.now() - started < 15_000, 'the new change did not arrive');
    controller.abort();
    await done;
    assert.equal(new Set(seen.map((c) => c.id)).size, 116);
    assert.deepEqual(seen.at(-1)?.code_id, 'alpha:NEW');
    assert.ok(
      seen.every(
        (c, i) => i === 0 || c.effective_date > seen[i - 1]!.effective_date || (c.effective_date === seen[i - 1]!.effective_date && c.id > seen[i - 1]!.id),
      ),
    );
    assert.equal(new Set(spread.hosts).size, 2);
  });

  test('503 while PostgreSQL is unreachable: retried after Retry-After, answered once it is back', async () => {
    const database = new URL(cluster.db.url);
    const proxy = new TcpProxy(database.hostname, Number(database.port || 5432));
    await proxy.start();
    try {
      const instance = await cluster.instance({ databaseUrl: cluster.db.urlVia(proxy.port) });
      const recorder = recordingFetch();
      const client = new Codebook({ apiKey: key, baseUrl: instance.url, fetch: recorder.fetch });
      assert.equal((await client.codes.get('alpha:C001')).display, 'Revised 1');
      await proxy.cut();
      const call = client.codes.get('alpha:C002');
      for (const started = Date.now(); recorder.sent.length < 2 || recorder.sent[1]!.status === null; await sleep(10)) {
        assert.ok(Date.now() - started < 15_000, 'no answer while the database is out of reach');
      }
      assert.equal(recorder.sent[1]!.status, 503);
      await proxy.restore();
      assert.equal((await call).display, 'Revised 2');
      assert.deepEqual(
        recorder.sent.map((s) => s.status),
        [200, 503, 200],
        'one 503, then the retry after Retry-After',
      );
    } finally {
      await proxy.close();
    }
  });
});
