/**
 * The PostgreSQL store against a database that stalls (the connection stays
 * open and nothing answers), through a TCP proxy the test freezes: reads,
 * usage writes and the ping give up with StoreUnavailableError after the
 * statement or connect timeout instead of hanging; a connection that timed out
 * is never reused (its late answer would be taken for the next statement's);
 * the store answers again once the database does. Imports are not bound by
 * the requests' statement timeout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { StoreUnavailableError } from '../../src/store/store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { codeRow, writeCodes } from './suite-fixtures.ts';

const skip = await skipUnlessPostgres();

/** Settles promise, or fails after ms: a stalled database must not hang the caller. */
async function settlesWithin<T>(ms: number, what: string, promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), ms)));
  const settled = promise.then(
    (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
  );
  const result = await Promise.race([settled, hang]);
  clearTimeout(timer);
  if (result === 'hang') assert.fail(`${what}: still waiting after ${ms} ms`);
  return result;
}

function assertUnavailable(result: PromiseSettledResult<unknown>, what: string): void {
  assert.equal(result.status, 'rejected', `${what} should fail while the database is stalled`);
  assert.ok(result.reason instanceof StoreUnavailableError, `${what}: ${String(result.reason)}`);
}

describe('PostgreSQL that stalls', { skip }, () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  const opened: PostgresStore[] = [];
  const open = async (schema: string, statementTimeoutMs: number) => {
    const store = await PostgresStore.open({ url: db.urlVia(proxy.port), schema, max: 1, connectTimeoutMs: 300, statementTimeoutMs });
    opened.push(store);
    return store;
  };

  before(async () => {
    db = await createTestDatabase('codebook_stall');
    proxy = new TcpProxy('127.0.0.1', Number(new URL(db.url).port || 5432));
    await proxy.start();
  });
  after(async () => {
    proxy?.resume();
    for (const store of opened) await store.close().catch(() => undefined);
    await proxy?.close();
    await db?.drop();
  });

  test('reads, usage writes and ping give up with StoreUnavailableError; the timed-out connection is dropped; back by itself', async () => {
    const store = await open(await db.createSchema(), 300);
    await writeCodes(store, [codeRow('x:A'), codeRow('x:B')]);
    assert.equal(await store.codeJson('x:A'), codeRow('x:A').json, 'the one pooled connection is open');

    proxy.stall();
    assertUnavailable(await settlesWithin(5_000, 'a read', store.codeJson('x:A')), 'a read on the open connection');
    assertUnavailable(
      await settlesWithin(5_000, 'a page', store.pageCodes({ after: null, limit: 5, system: null, status: null })),
      'a read on a new connection',
    );
    assertUnavailable(
      await settlesWithin(5_000, 'a usage write', store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 1 }], new Map())),
      'a usage write (a transaction)',
    );
    assertUnavailable(await settlesWithin(5_000, 'the ping', store.ping()), 'the ping');

    proxy.resume();
    let answer: string | null = null;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
      answer = await store.codeJson('x:B').catch(() => null);
      if (answer !== null) break;
    }
    assert.equal(answer, codeRow('x:B').json, "B's record, not the late answer for A on a reused connection");
    assert.equal(await store.codeJson('x:A'), codeRow('x:A').json);
    assert.equal((await store.pageCodes({ after: null, limit: 5, system: null, status: null })).count, 2);
  });

  test("an import is not bound by the requests' statement timeout: it may wait for the import lock longer", async () => {
    const schema = await db.createSchema();
    const first = await open(schema, 100);
    const second = await open(schema, 100);
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const importing = first.withImport(async (tx) => {
      holding();
      await sleep(600);
      await tx.writeCodes([codeRow('x:A')]);
    });
    await holds;
    // Its first statement waits for the lock the first import holds: six times the statement timeout.
    const waiting = second.withImport(async (tx) => (await tx.codesById(['x:A'])).length);
    await importing;
    assert.equal(await waiting, 1, 'the second import ran once the first committed');
  });
});
