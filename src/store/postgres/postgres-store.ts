/**
 * Store over PostgreSQL (pg Pool). Reads are named statements returning the
 * records' ready JSON; an import runs in one transaction on a connection of
 * its own, after taking a transaction-scoped advisory lock that excludes every
 * other import in every process. Connection failures surface as
 * StoreUnavailableError, and the pool reconnects by itself once the database
 * is back.
 */
import type pg from 'pg';
import { serversSharingLimits } from './server-lock.ts';
import {
  IMPORT_WAIT_MS,
  type ChangeKey,
  type ChangePageQuery,
  type CodePageQuery,
  type ImportTransaction,
  type RawPage,
  type Store,
  type WriteTransaction,
} from '../store.ts';
import { InvalidRequest } from '../../errors.ts';
import { PostgresAccessStore } from './access-store.ts';
import { PostgresKeyLifeStore } from './key-life-store.ts';
import { SqlDashboardStore } from '../sql/dashboard-queries.ts';
import { toRawPage } from '../sql/raw-page.ts';
import { transactionOver } from '../sql/transaction.ts';
import { jsonText, type JsonText } from '../../domain/json-text.ts';
import type { ChangeRecord, CodeRecord } from '../../domain/records.ts';
import { PostgresSql } from './sql.ts';
import { PostgresImportTransaction } from './import-transaction.ts';
import { migratePostgres } from './migrations.ts';
import { searchPostgres } from './search.ts';
import { PostgresSystemsStore } from './systems.ts';
import type { CodeSearchQuery, SearchKey, SearchTuning } from '../search-walk.ts';
import { PostgresNavigation } from './navigation.ts';
import {
  arrays,
  createPool,
  exec,
  inTransaction,
  LOCK_KEY_SQL,
  rows,
  storeError,
  transaction,
  withOwnConnection,
  type PoolOptions,
  type Queryable,
  type Value,
} from './pg-client.ts';
import { BUMP_ACCESS_VERSION } from './access-version.ts';

export interface PostgresStoreOptions extends PoolOptions {
  /** How long an import waits for another import to finish, in ms. */
  importWaitMs?: number;
  /** Search's limits (tests); defaults otherwise. */
  searchTuning?: SearchTuning;
}

const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Codes an import writes before the tables it wrote are analysed as soon as it
 * commits: until autovacuum gets to them, the planner's statistics predate the
 * rows, and at 1 000 000 freshly imported codes the search's two-word class had
 * a p99 of 164 ms that ANALYZE brought to 89 ms.
 */
const ANALYZE_AFTER_CODES = 50_000;

/** Planner statistics for the tables an import writes; the import has committed, so a failure here only waits for autovacuum. */
async function analyzeAfterImport(pool: Queryable): Promise<void> {
  try {
    await exec(pool, 'ANALYZE codes, changes, code_versions, code_edges, code_closure, search_codes');
  } catch {
    // Statistics are an optimisation: the import stands.
  }
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly access: PostgresAccessStore;
  readonly usage: PostgresAccessStore;
  readonly dashboard: SqlDashboardStore;
  readonly keyLife: PostgresKeyLifeStore;
  readonly systems: PostgresSystemsStore;
  readonly navigation: PostgresNavigation;
  private readonly importWaitMs: number;
  private readonly connection: PoolOptions;
  private readonly searchTuning: SearchTuning;
  private readonly importListeners: (() => Promise<void>)[] = [];

  private constructor(pool: pg.Pool, options: PostgresStoreOptions) {
    this.pool = pool;
    this.connection = options;
    this.importWaitMs = options.importWaitMs ?? IMPORT_WAIT_MS;
    this.searchTuning = options.searchTuning ?? {};
    this.access = this.usage = new PostgresAccessStore(pool);
    this.dashboard = new SqlDashboardStore(new PostgresSql(pool));
    this.keyLife = new PostgresKeyLifeStore(pool);
    this.systems = new PostgresSystemsStore(pool);
    this.navigation = new PostgresNavigation(pool);
  }

  /** Connects and brings the schema up to date (safe with many instances starting at once). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = createPool(options);
    try {
      await migratePostgres(options);
    } catch (error) {
      await pool.end();
      throw storeError(error);
    }
    return new PostgresStore(pool, options);
  }

  /** No in-process cache can tell that another instance committed: NaN (caches nothing). */
  externalWriteVersion(): number {
    return Number.NaN;
  }

  /** Instances learn of changes through Redis (the access epoch), told by the writer before it returns. */
  async settleWrites(): Promise<void> {}

  onImportCommitted(listener: () => Promise<void>): void {
    this.importListeners.push(listener);
  }

  serversSharingLimits(): Promise<boolean> {
    return serversSharingLimits(this.pool);
  }

  async pageCodes(q: CodePageQuery): Promise<RawPage<string, CodeRecord>> {
    const values: Value[] = [q.after ?? '', q.limit + 1];
    const where = ['id > $1'];
    if (q.system !== null) where.push(`system = $${values.push(q.system)}`);
    if (q.status !== null) where.push(`status = $${values.push(q.status)}`);
    const found = await arrays<[string, string]>(this.pool, `SELECT id, json FROM codes WHERE ${where.join(' AND ')} ORDER BY id LIMIT $2`, values);
    return toRawPage<CodeRecord, [string, string], string>(found, q.limit, 1, (row) => row[0]);
  }

  async searchCodes(q: CodeSearchQuery): Promise<RawPage<SearchKey, CodeRecord>> {
    return searchPostgres(this.pool, q, this.searchTuning);
  }

  async codeJson(id: string): Promise<JsonText<CodeRecord> | null> {
    const [row] = await arrays<[string]>(this.pool, 'SELECT json FROM codes WHERE id = $1', [id]);
    return row ? jsonText<CodeRecord>(row[0]) : null;
  }

  async codeExists(id: string): Promise<boolean> {
    return (await arrays(this.pool, 'SELECT 1 FROM codes WHERE id = $1', [id])).length > 0;
  }

  async countCodes(): Promise<number> {
    const [[n] = ['0']] = await arrays<[string]>(this.pool, 'SELECT count(*) FROM codes');
    return Number(n);
  }

  async hasCodes(): Promise<boolean> {
    return (await arrays(this.pool, 'SELECT 1 FROM codes LIMIT 1')).length > 0;
  }

  /**
   * PostgreSQL compares the row value (effective_date, id) as one index range
   * on (…, effective_date, id), so unlike SQLite it needs no split.
   */
  async pageChanges(q: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>> {
    const values: Value[] = [q.limit + 1];
    const where: string[] = [];
    const add = (condition: (p: string) => string, value: string | number | null) => {
      if (value !== null) where.push(condition(`$${values.push(value)}`));
    };
    add((p) => `code_id = ${p}`, q.codeId);
    add((p) => `system = ${p}`, q.system);
    add((p) => `type = ${p}`, q.type);
    add((p) => `effective_date >= ${p}`, q.effectiveFrom);
    add((p) => `effective_date <= ${p}`, q.effectiveTo);
    add((p) => `release = ${p}`, q.release ?? null);
    if (q.after !== null) {
      const date = `$${values.push(q.after.effectiveDate)}`;
      const id = `$${values.push(q.after.id)}::bigint`;
      where.push(`(effective_date, id) > (${date}, ${id})`);
    }
    const sql = `SELECT effective_date, id, json FROM changes ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY effective_date, id LIMIT $1`;
    const found = await arrays<[string, string, string]>(this.pool, sql, values);
    return toRawPage<ChangeRecord, [string, string, string], ChangeKey>(found, q.limit, 2, (row) => ({ effectiveDate: row[0], id: Number(row[1]) }));
  }

  /** On a connection of its own, without the requests' statement timeout: an import may take minutes. */
  async withImport<T>(fn: (tx: ImportTransaction) => Promise<T>): Promise<T> {
    let codesWritten = 0;
    const result = await withOwnConnection(this.connection, (connection, markBroken) =>
      inTransaction(connection, markBroken, async (client) => {
        await exec(client, `SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.importWaitMs))}`);
        try {
          await exec(client, `SELECT pg_advisory_xact_lock(${LOCK_KEY_SQL})`, [':codebook.import']);
        } catch (error) {
          if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
          throw new Error(`another import held the import lock for more than ${Math.round(this.importWaitMs / 1000)} s`, { cause: error });
        }
        await exec(client, 'SET LOCAL lock_timeout = 0');
        const tx = new PostgresImportTransaction(client);
        const written = await fn(tx);
        codesWritten = tx.codesWritten;
        // Cached reads are vouched for by the access version (through Redis): an import moves it too.
        await exec(client, BUMP_ACCESS_VERSION);
        return written;
      }),
    );
    for (const listener of this.importListeners) await listener();
    if (codesWritten >= ANALYZE_AFTER_CODES) await analyzeAfterImport(this.pool);
    return result;
  }

  /** On a pooled connection (bound by the statement timeout), READ COMMITTED as every other write. */
  async withTransaction<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return transaction(this.pool, (client) => fn(transactionOver(new PostgresSql(client))));
  }

  async getSetting(key: string): Promise<string | null> {
    const [row] = await arrays<[string]>(this.pool, 'SELECT value FROM settings WHERE key = $1', [key]);
    return row ? row[0] : null;
  }

  async ensureSetting(key: string, value: string): Promise<string> {
    // A racing insert waits for the other's commit, then does nothing and reads its value.
    await exec(this.pool, 'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
    return (await this.getSetting(key))!;
  }

  async backupTo(): Promise<string[]> {
    throw new InvalidRequest('codebook backup copies an SQLite database; back PostgreSQL up with its own tools, e.g. pg_dump --format=custom');
  }

  async ping(): Promise<void> {
    await rows(this.pool, 'SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
