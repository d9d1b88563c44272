/**
 * client.changes.follow() against a real server: it yields the feed, waits,
 * picks up imports made while it waits (by the CLI in another process, too),
 * resumes from a persisted position with every change exactly once, keeps its
 * filters, outlasts an outage and answers cut off partway, and stops on its
 * signal.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { Codebook, type Change, type ChangeFeed, type CodebookOptions } from '../../clients/typescript/src/index.ts';
import { runImport } from '../../src/services/import/importer.ts';
import { runCodebook } from '../helpers/cli.ts';
import { toCsv } from '../helpers/context.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { codeRows, recordingFetch, startGateway, startTestServer, type TestServer } from './server.ts';

const FAST = { pollIntervalMs: 20, maxPollIntervalMs: 100 };

let server: TestServer;
let key: string;
let imports = 0;

/** An import in delta mode through the importer, dated as given (back-dated when asked). */
async function importCodes(system: string, rows: Record<string, string>[], effectiveDate: string, allowBackdated = false): Promise<void> {
  const file = join(server.dir, `follow-${++imports}.csv`);
  writeFileSync(file, toCsv(rows));
  await runImport(server.deps.store, { file, format: 'csv', mode: 'delta', system, release: `r${imports}`, effectiveDate, allowBackdated });
}

/** The whole feed, walked by hand. */
async function feed(query = ''): Promise<Change[]> {
  const all: Change[] = [];
  for await (const change of client().changes.list({ limit: 200, ...Object.fromEntries(new URLSearchParams(query)) })) all.push(change);
  return all;
}

const client = (options: CodebookOptions = {}) => new Codebook({ apiKey: key, baseUrl: server.url, ...options });

/** Consumes a follower in the background until stopped; what it yielded so far is in `seen`. */
function consume(follower: ChangeFeed) {
  const seen: Change[] = [];
  let ended: { error: unknown } | null = null;
  const done = (async () => {
    for await (const change of follower) seen.push(change);
  })();
  done.then(
    () => (ended = { error: undefined }),
    (error: unknown) => (ended = { error }),
  );
  return {
    seen,
    done,
    /** Waits until the follower has yielded `count` changes; throws when it ends first, with its error if it had one. */
    async until(count: number, timeoutMs = 15_000): Promise<void> {
      for (const started = Date.now(); seen.length < count; await sleep(10)) {
        if (ended !== null) {
          const { error } = ended;
          if (error instanceof Error) throw error;
          throw new Error(`the follower ended after ${seen.length} of ${count} changes`, { cause: error });
        }
        if (Date.now() - started > timeoutMs) throw new Error(`the follower yielded ${seen.length} of ${count} changes within ${timeoutMs} ms`);
      }
    },
  };
}

const ids = (changes: Change[]) => changes.map((c) => c.id);

beforeEach(async () => {
  server = await startTestServer();
  key = await server.customer();
  imports = 0;
});
afterEach(() => server.close());

describe('follow', () => {
  test('yields the feed, waits, then picks up an import the CLI makes in another process', async () => {
    await importCodes('alpha', codeRows(7), '2024-01-01');
    const controller = new AbortController();
    const follower = client().changes.follow({ ...FAST, limit: 3, signal: controller.signal });
    const run = consume(follower);
    await run.until(7);
    assert.deepEqual(ids(run.seen), ids(await feed()));

    const csv = join(server.dir, 'release-2.csv');
    writeFileSync(
      csv,
      toCsv([
        { code: 'C000', display: 'Zero, revised' },
        { code: 'NEW', display: 'New code' },
      ]),
    );
    const cli = await runCodebook(['import', csv, '--system', 'alpha', '--release', '2024-06', '--effective-date', '2024-06-01', '--mode', 'delta'], {
      settings: { DATABASE_URL: `sqlite:${join(server.dir, 'codebook.db')}` },
    });
    assert.equal(cli.code, 0, cli.stderr);
    await run.until(9);
    controller.abort();
    await run.done;
    assert.deepEqual(
      run.seen.slice(7).map((c) => [c.code_id, c.type, c.release]),
      [
        ['alpha:C000', 'revised', '2024-06'],
        ['alpha:NEW', 'added', '2024-06'],
      ],
    );
    assert.deepEqual(ids(run.seen), ids(await feed()));
  });

  test('every change exactly once across restarts from the persisted position, while imports land', async () => {
    await importCodes('alpha', codeRows(10), '2024-01-01');
    const yielded: Change[] = [];
    let saved: string | null = null;
    let date = 2;
    // Stops after a random number of changes, persists, and starts a new client from the saved position;
    // between runs, and while a run waits, imports add changes (some on the date of the previous one).
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4 }), fc.boolean(), async (take, newCodes, sameDate) => {
        if (!sameDate && date < 28) date++;
        const effective = `2024-02-${String(date).padStart(2, '0')}`;
        if (newCodes > 0)
          await importCodes(
            'alpha',
            Array.from({ length: newCodes }, (_, i) => ({ code: `N${imports}-${i}`, display: 'new' })),
            effective,
          );
        // Never more than the feed holds: the follower would wait for more.
        const goal = Math.min(take, (await feed()).length - yielded.length);
        const follower = client().changes.follow({ ...FAST, limit: 4, since: saved });
        let taken = 0;
        if (goal > 0) {
          for await (const change of follower) {
            yielded.push(change);
            saved = follower.position;
            if (++taken === goal) break;
          }
        }
        return true;
      }),
      { numRuns: 25, seed: 20261125 },
    );
    // Drain what is left, with one more import while the follower waits.
    const controller = new AbortController();
    const follower = client().changes.follow({ ...FAST, limit: 4, since: saved, signal: controller.signal });
    const run = consume(follower);
    const total = (await feed()).length;
    await run.until(total - yielded.length);
    await importCodes('alpha', [{ code: 'LAST', display: 'last' }], '2024-12-31');
    await run.until(total - yielded.length + 1);
    controller.abort();
    await run.done;
    const all = [...yielded, ...run.seen];
    assert.deepEqual(ids(all), ids(await feed()), 'the feed, in order, each change once');
    assert.equal(new Set(ids(all)).size, all.length);
  });

  test('starts after a changes.list cursor, keeps to its filters, and refuses a position made with other filters', async () => {
    await importCodes('alpha', codeRows(4), '2024-01-01');
    await importCodes('beta', codeRows(4), '2024-01-01');
    const page = await client().changes.list({ system: 'beta', limit: 2 });
    const controller = new AbortController();
    const follower = client().changes.follow({ ...FAST, system: 'beta', since: page.nextCursor, signal: controller.signal });
    const run = consume(follower);
    await run.until(2);
    await importCodes('alpha', [{ code: 'ALPHA-ONLY', display: 'x' }], '2024-02-01');
    await importCodes('beta', [{ code: 'BETA-NEW', display: 'x' }], '2024-02-01');
    await run.until(3);
    controller.abort();
    await run.done;
    assert.deepEqual(
      run.seen.map((c) => c.code_id),
      ['beta:C002', 'beta:C003', 'beta:BETA-NEW'],
    );
    assert.throws(() => client().changes.follow({ system: 'alpha', since: follower.position }), /other filters \(system=beta\).*same filters \(system=alpha\)/);
    assert.throws(() => client().changes.follow({ since: 'cbf1.bm90IGpzb24' }), /not a position given by changes\.follow/);
  });

  test('an aborted signal ends the loop without an error, at the position of the last change yielded', async () => {
    await importCodes('alpha', codeRows(3), '2024-01-01');
    const controller = new AbortController();
    const recorder = recordingFetch();
    const follower = client({ fetch: recorder.fetch }).changes.follow({ pollIntervalMs: 60_000, signal: controller.signal });
    const run = consume(follower);
    await run.until(3);
    const position = follower.position;
    const requests = recorder.sent.length;
    controller.abort();
    await run.done;
    assert.equal(follower.position, position);
    assert.equal(recorder.sent.length, requests);
    await importCodes('alpha', [{ code: 'AFTER', display: 'x' }], '2024-01-02');
    const next = client().changes.follow({ since: position, signal: AbortSignal.timeout(5_000) });
    for await (const change of next) {
      assert.equal(change.code_id, 'alpha:AFTER');
      break;
    }
  });

  test('keeps following through an outage: waits, asks again, and yields what was imported meanwhile', async (t) => {
    await importCodes('alpha', codeRows(2), '2024-01-01');
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(server.url).port));
    await proxy.start();
    t.after(() => proxy.close());
    const controller = new AbortController();
    const recorder = recordingFetch();
    const follower = client({ baseUrl: `http://127.0.0.1:${proxy.port}`, fetch: recorder.fetch, maxRetries: 0 }).changes.follow({
      ...FAST,
      signal: controller.signal,
    });
    const run = consume(follower);
    await run.until(2);
    await proxy.cut();
    const failedBefore = recorder.sent.filter((s) => s.error !== undefined).length;
    await importCodes('alpha', [{ code: 'DURING', display: 'x' }], '2024-01-02');
    for (const started = Date.now(); recorder.sent.filter((s) => s.error !== undefined).length < failedBefore + 2; await sleep(10)) {
      if (Date.now() - started > 10_000) throw new Error('the follower did not keep asking during the outage');
    }
    await proxy.restore();
    await run.until(3);
    controller.abort();
    await run.done;
    assert.deepEqual(
      run.seen.map((c) => c.code_id),
      ['alpha:C000', 'alpha:C001', 'alpha:DURING'],
    );
  });

  test('keeps following when answers are cut off partway: asks again and yields every change once', async (t) => {
    await importCodes('alpha', codeRows(3), '2024-01-01');
    let cuts = 2;
    const gateway = await startGateway(server.url, () => (cuts-- > 0 ? 'cut' : 'relay'));
    t.after(() => gateway.close());
    const controller = new AbortController();
    const follower = client({ baseUrl: gateway.url, maxRetries: 0 }).changes.follow({ ...FAST, signal: controller.signal });
    const run = consume(follower);
    await run.until(3);
    cuts = 2;
    await importCodes('alpha', [{ code: 'AFTER', display: 'x' }], '2024-01-02');
    await run.until(4);
    controller.abort();
    await run.done;
    assert.deepEqual(
      run.seen.map((c) => c.code_id),
      ['alpha:C000', 'alpha:C001', 'alpha:C002', 'alpha:AFTER'],
    );
    assert.equal(gateway.moves.filter((m) => m === 'cut').length, 4, 'two cut answers at the start, two while polling');
  });

  test('a back-dated import sorts before the position and is not yielded (the documented limit); nothing is yielded twice', async () => {
    await importCodes('alpha', codeRows(2), '2024-01-01');
    await importCodes('alpha', [{ code: 'FEB', display: 'x' }], '2024-02-01');
    const controller = new AbortController();
    const follower = client().changes.follow({ ...FAST, signal: controller.signal });
    const run = consume(follower);
    await run.until(3);
    await importCodes('alpha', [{ code: 'BACKDATED', display: 'x' }], '2024-01-15', true);
    await importCodes('alpha', [{ code: 'MARCH', display: 'x' }], '2024-03-01');
    await run.until(4);
    await sleep(200);
    controller.abort();
    await run.done;
    assert.deepEqual(
      run.seen.map((c) => c.code_id),
      ['alpha:C000', 'alpha:C001', 'alpha:FEB', 'alpha:MARCH'],
    );
    assert.deepEqual(
      (await feed()).map((c) => c.code_id),
      ['alpha:C000', 'alpha:C001', 'alpha:BACKDATED', 'alpha:FEB', 'alpha:MARCH'],
    );
  });
});
