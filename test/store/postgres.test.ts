/**
 * The shared store suite on PostgreSQL, unchanged, plus what only PostgreSQL
 * has: migrations under an advisory lock, imports serialised across pools,
 * change ids visible in commit order under READ COMMITTED, and
 * StoreUnavailableError when the database cannot be reached.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { StoreUnavailableError } from '../../src/store/store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { storeSuite } from './store.suite.ts';
import { subStoreSuite } from './substores.suite.ts';
import { keyLifeStoreSuite } from './key-life.suite.ts';
import { changeRow, codeRow, NO_CHANGE_FILTERS, pageAllChanges, writeCodes } from './suite-fixtures.ts';

const skip = await skipUnlessPostgres();
let db: TestDatabase | null = null;
const opened: PostgresStore[] = [];

async function freshStore(options: { importWaitMs?: number; schema?: string } = {}): Promise<PostgresStore> {
  const schema = options.schema ?? (await db!.createSchema());
  const store = await PostgresStore.open({ url: db!.url, schema, max: 4, importWaitMs: options.importWaitMs });
  opened.push(store);
  return store;
}

describe('PostgreSQL', { skip }, () => {
  before(async () => {
    db = await createTestDatabase('codebook_store');
  });
  after(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    await db?.drop();
  });

  storeSuite('postgres', async () => {
    const store = await freshStore();
    return { store, dir: '', cleanup: () => store.close() };
  });

  subStoreSuite('postgres', async () => {
    const store = await freshStore();
    return { store, dir: '', cleanup: () => store.close() };
  });

  keyLifeStoreSuite('postgres', async () => {
    const store = await freshStore();
    return { store, dir: '', cleanup: () => store.close() };
  });

  describe('PostgresStore only', () => {
    test('a large import leaves fresh planner statistics of the tables it wrote; a small one leaves them to autovacuum', async () => {
      const lastAnalyze = async (schema: string) => {
        const client = new pg.Client({ connectionString: db!.url });
        await client.connect();
        try {
          const found = await client.query("SELECT last_analyze FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'codes'", [schema]);
          return found.rows[0]?.last_analyze ?? null;
        } finally {
          await client.end();
        }
      };
      const small = await db!.createSchema();
      await writeCodes(await freshStore({ schema: small }), [codeRow('s:A'), codeRow('s:B')]);
      assert.equal(await lastAnalyze(small), null, 'two codes: no ANALYZE');
      const large = await db!.createSchema();
      await writeCodes(
        await freshStore({ schema: large }),
        Array.from({ length: 50_000 }, (_, i) => codeRow(`l:C${i}`)),
      );
      assert.notEqual(await lastAnalyze(large), null, '50 000 codes: analysed once committed');
    });

    test('migrations: instances starting at once apply each version exactly once', async () => {
      const schema = await db!.createSchema();
      const stores = await Promise.all([1, 2, 3].map(() => freshStore({ schema })));
      const client = new pg.Client({ connectionString: db!.url, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        const versions = (await client.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version);
        assert.deepEqual(
          versions,
          POSTGRES_MIGRATIONS.map((_, i) => i + 1),
        );
        const tables = (await client.query('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [schema])).rows.map((r) => r.tablename);
        for (const t of ['api_keys', 'changes', 'codes', 'limit_counters', 'plans', 'settings', 'usage_daily']) assert.ok(tables.includes(t), t);
      } finally {
        await client.end();
      }
      await writeCodes(stores[0]!, [codeRow('x:A')]);
      assert.equal(await stores[2]!.codeJson('x:A'), codeRow('x:A').json, 'every instance sees one database');
    });

    test('two racing writers and a reader paging in between: every change id seen once, in order, none skipped', async () => {
      const schema = await db!.createSchema();
      const [writerA, writerB, reader] = await Promise.all([freshStore({ schema }), freshStore({ schema }), freshStore({ schema })]);
      const perWriter = 40;
      const write = async (store: PostgresStore, tag: string) => {
        for (let i = 0; i < perWriter; i++) {
          await store.withImport(async (tx) => {
            const id = await tx.nextChangeId();
            // Hold the transaction open with the id taken: a writer that got its
            // id without the lock would now commit a larger id before this one.
            await sleep(i % 3);
            await tx.writeChanges([changeRow(id, `${tag}:${i}`, '2024-01-01')]);
          });
        }
      };
      const seen: number[] = [];
      let position: { effectiveDate: string; id: number } | null = null;
      let writing = true;
      const read = async () => {
        for (let reads = 0; reads < 100_000 && (writing || reads === 0); reads++) {
          const page = await reader.pageChanges({ ...NO_CHANGE_FILTERS, after: position, limit: 3 });
          const ids = (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: number }[]).map((r) => r.id);
          for (const id of ids) {
            assert.equal(id, seen.length + 1, `after id ${seen.length} the reader saw id ${id}: a change became visible before a smaller one`);
            seen.push(id);
          }
          position = page.last ?? position;
          await sleep(0);
        }
      };
      const writers = Promise.all([write(writerA, 'a'), write(writerB, 'b')]).finally(() => (writing = false));
      await Promise.all([writers, read()]);
      await read();
      assert.deepEqual(
        seen,
        Array.from({ length: 2 * perWriter }, (_, i) => i + 1),
        'every committed change once, in id order',
      );
    });

    test('an import waiting for the lock longer than importWaitMs fails with a clear message; the holder commits', async () => {
      const schema = await db!.createSchema();
      const holder = await freshStore({ schema });
      const impatient = await freshStore({ schema, importWaitMs: 100 });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => (holding = resolve));
      const first = holder.withImport(async (tx) => {
        await tx.writeChanges([changeRow(1, 'x:A', '2024-01-01')]);
        holding();
        await released;
      });
      await holds;
      await assert.rejects(
        impatient.withImport(async () => 'never'),
        /another import held the import lock for more than/,
      );
      release();
      await first;
      assert.deepEqual((await pageAllChanges(impatient, NO_CHANGE_FILTERS, 10)).keys, ['2024-01-01#1']);
      assert.equal(await impatient.withImport((tx) => tx.nextChangeId()), 2, 'the impatient store imports once the lock is free');
    });

    test('usage flushes from several instances: counters keep the largest value, usage adds up', async () => {
      const schema = await db!.createSchema();
      const [a, b] = await Promise.all([freshStore({ schema }), freshStore({ schema })]);
      await a.access.seedPlans([{ name: 'p', endpoints: ['codes.list'], ratePerMinute: 10, monthlyQuota: 100, testKeysAllowed: true }]);
      await a.access.createOrg({ id: 'org_1', slug: 'one', plan: 'p', createdAt: '2026-01-01T00:00:00.000Z' });
      await a.access.insertKey({
        id: 'key_1',
        orgId: 'org_1',
        hash: 'h1',
        displayPrefix: 'svc_live_abcd',
        name: 'k',
        mode: 'live',
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      const usage = (n: number) => [{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok' as const, count: n }];
      const results = await Promise.all([
        a.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 7 }], []),
        b.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 5 }], []),
        a.usage.addUsage(usage(2), new Map([['key_1', '2026-03-15T12:00:01.000Z']])),
        b.usage.addUsage(usage(3), new Map([['key_1', '2026-03-15T12:00:00.000Z']])),
      ]);
      assert.deepEqual(results, [true, true, true, true]);
      assert.deepEqual(await b.usage.loadCounters('org_1', ['month:2026-03', 'month:2026-02']), new Map([['month:2026-03', 7]]));
      assert.deepEqual(await b.usage.usageByDay('org_1', '2026-03'), [{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 5 }]);
      assert.equal((await b.access.getKey('key_1'))!.lastUsedAt, '2026-03-15T12:00:01.000Z', 'the latest use wins');
      await a.usage.writeCounters([{ orgId: 'org_1', window: 'minute:2026-03-15T12:00', count: 3 }], ['minute:2026-03-15T12:00']);
      await a.usage.writeCounters([{ orgId: 'org_1', window: 'minute:2026-03-15T12:01', count: 1 }], ['minute:2026-03-15T12:01']);
      assert.deepEqual(
        await a.usage.loadCounters('org_1', ['minute:2026-03-15T12:00', 'minute:2026-03-15T12:01', 'month:2026-03']),
        new Map([
          ['minute:2026-03-15T12:01', 1],
          ['month:2026-03', 7],
        ]),
        'past minutes are deleted, the month stays',
      );
    });

    test('a revocation or plan change moves settings.access_version, whoever makes it; using a key does not', async () => {
      const store = await freshStore();
      await store.access.seedPlans([{ name: 'p', endpoints: ['codes.list'], ratePerMinute: 10, monthlyQuota: null, testKeysAllowed: true }]);
      await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'p', createdAt: '2026-01-01T00:00:00.000Z' });
      await store.access.insertKey({
        id: 'key_1',
        orgId: 'org_1',
        hash: 'h1',
        displayPrefix: 'svc_live_abcd',
        name: 'k',
        mode: 'live',
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      const version = async () => Number((await store.getSetting('access_version')) ?? 0);
      const v0 = await version();
      await store.usage.addUsage([], new Map([['key_1', '2026-03-15T12:00:00.000Z']]));
      assert.equal(await version(), v0, 'recording a use is not an access change');
      await store.access.revokeKey('key_1', '2026-03-15T12:00:00.000Z');
      const v1 = await version();
      assert.ok(v1 > v0, 'revocation moves it');
      await store.access.upsertPlan({ name: 'p', endpoints: ['codes.list'], ratePerMinute: 20, monthlyQuota: null, testKeysAllowed: true });
      assert.ok((await version()) > v1, 'a plan change moves it');
    });

    test('a database that goes away: StoreUnavailableError, fast, from reads, imports and ping; back by itself after', async () => {
      const proxy = new TcpProxy('127.0.0.1', Number(new URL(db!.url).port || 5432));
      await proxy.start();
      const store = await PostgresStore.open({ url: db!.urlVia(proxy.port), schema: await db!.createSchema(), max: 2 });
      opened.push(store);
      try {
        await writeCodes(store, [codeRow('x:A')]);
        await proxy.cut();
        await assert.rejects(store.ping(), StoreUnavailableError);
        await assert.rejects(store.pageCodes({ after: null, limit: 5, system: null, status: null }), StoreUnavailableError);
        await assert.rejects(store.codeJson('x:A'), StoreUnavailableError);
        await assert.rejects(
          store.withImport(async () => 1),
          StoreUnavailableError,
        );
        await assert.rejects(store.access.findKeyByHash('h'), StoreUnavailableError);
        await proxy.restore();
        await store.ping();
        assert.equal(await store.codeJson('x:A'), codeRow('x:A').json, 'the same store answers again once the database is back');
      } finally {
        await proxy.close();
      }
      await assert.rejects(PostgresStore.open({ url: 'postgres://postgres@127.0.0.1:1/none' }), StoreUnavailableError);
    });

    test('the connection dies in the middle of an import: the import fails whole, and nothing crashes', async () => {
      const proxy = new TcpProxy('127.0.0.1', Number(new URL(db!.url).port || 5432));
      await proxy.start();
      const schema = await db!.createSchema();
      const store = await PostgresStore.open({ url: db!.urlVia(proxy.port), schema, max: 2 });
      opened.push(store);
      const direct = await freshStore({ schema });
      try {
        let holding!: () => void;
        const holds = new Promise<void>((resolve) => (holding = resolve));
        const importing = store.withImport(async (tx) => {
          await tx.writeCodes([codeRow('x:A')]);
          holding();
          await sleep(200);
          await tx.writeChanges([changeRow(1, 'x:A', '2024-01-01')]);
        });
        await holds;
        await proxy.cut();
        await assert.rejects(importing, StoreUnavailableError);
        await proxy.restore();
        assert.equal(await direct.countCodes(), 0, 'nothing of it was committed');
        await writeCodes(store, [codeRow('x:B')]);
        assert.equal(await direct.countCodes(), 1, 'the store imports again over a new connection');
      } finally {
        await proxy.close();
      }
    });
  });
});
