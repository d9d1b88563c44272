/**
 * Store over node:sqlite. Reads use one connection with cached prepared
 * statements; each import and each audited change gets a connection of its
 * own (transactions.ts).
 */
import type { StatementSync } from 'node:sqlite';
import { DatabaseFileError } from '../../errors.ts';
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
import { migrateSqlite } from './migrations.ts';
import { activityPath, attachActivity } from './activity.ts';
import { explainUnopenable } from './unopenable.ts';
import { backupInto } from './backup-files.ts';
import { isReadOnly, notWritable, refuseReadOnly } from './read-only.ts';
import { SqliteAccessStore } from './access-store.ts';
import { SqliteKeyLifeStore } from './key-life-store.ts';
import { SqlDashboardStore } from '../sql/dashboard-queries.ts';
import { pageChanges, pageCodes, type Arrays } from './pages.ts';
import { jsonText, type JsonText } from '../../domain/json-text.ts';
import type { ChangeRecord, CodeRecord } from '../../domain/records.ts';
import { SqliteSql } from './sql.ts';
import { BUSY_TIMEOUT_MS, SERVER_WRITE_WAIT, type WriteWait } from './busy.ts';
import { SqliteStatements } from './statements.ts';
import { searchSqlite } from './search.ts';
import type { CodeSearchQuery, SearchKey, SearchTuning } from '../search-walk.ts';
import { SqliteSystemsStore } from './systems.ts';
import { SqliteNavigation } from './navigation.ts';
import { settle, WindowedVersion } from './write-window.ts';
import { SQLITE_MMAP_MAX_BYTES } from '../../config.ts';
import { BatchReader } from './batch-reader.ts';
import { endReadTurn } from './read-turn.ts';
import { openDatabase } from './connection.ts';
import { OpenedFiles } from './opened-files.ts';
import { importRunning } from './import-marker.ts';
import { inImport, inTransaction } from './transactions.ts';
import { TurnLoad } from './turn-load.ts';

/** Pages of WAL after which the main connection's commit checkpoints (see the constructor). */
const SERVER_CHECKPOINT_PAGES = 100;
export interface SqliteStoreOptions {
  path: string;
  /** How long an import waits for another import to finish, in ms; default IMPORT_WAIT_MS. */
  importWaitMs?: number;
  /**
   * How every other write waits while another connection holds the write
   * lock (an import, until it commits), and what it does once it has waited a
   * moment. Default SERVER_WRITE_WAIT: a request is answered, with a 503 if
   * need be, within WRITE_WAIT_MS, and at once when an import holds the lock
   * (import-marker.ts). The operator CLI waits as long as imports wait for
   * each other, and says so (src/cli/main.ts).
   */
  writeWait?: WriteWait;
  /** Search's limits (tests); defaults otherwise. */
  searchTuning?: SearchTuning;
  /**
   * false: imports write no search rows, so search misses every code they
   * write. Only for measuring what the search index costs an import
   * (`npm run bench -- --import-share`, on scratch files); default true.
   */
  searchIndex?: boolean;
  /** How much of the file the reading connection maps (PRAGMA mmap_size); default SQLITE_MMAP_MAX_BYTES. */
  mmapBytes?: number;
  /**
   * Pages of /v1/codes, /v1/changes and /v1/codes/{id}/changes asked together are read on the reader thread
   * (SQLITE_PAGES_ON_THREAD; the server's process then fixes glibc's mmap threshold, src/main.js): faster
   * page scenarios under load, more memory, and the batches and searches lose their thread (docs/decisions.md). Default false.
   */
  pagesOnThread?: boolean;
  /** Batches of this many ids or more are read on the batch reader's thread (tests set it to see both ways); default BATCH_THREAD_MIN_IDS. */
  batchThreadMinIds?: number;
  /**
   * true (the server): a database or activity file that SQLite could open only read-only stops the
   * opening with DatabaseFileError, instead of a server that serves and records nothing. The CLI
   * leaves it false: its commands that only read work on a file they may not write.
   */
  writable?: boolean;
  /** Told when the request log's writer thread can write the activity file again after it could not (read-only.ts). */
  onNotice?: (message: string) => void;
}

/** What each file holds, for the line that says it cannot be written. */
const MAIN_HOLDS = 'its codes, keys, organisations, accounts and settings';
const ACTIVITY_HOLDS = "the usage counts, the limit counters, the request log and each key's last use";

/** Below this many ids a batch is read on the event loop (see batch-reader.ts). */
const BATCH_THREAD_MIN_IDS = 32;

export class SqliteStore extends SqliteStatements implements Store {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  private readonly searchTuning: SearchTuning;
  private readonly searchIndex: boolean;
  private readonly importWaitMs: number;
  readonly access: SqliteAccessStore;
  readonly usage: SqliteAccessStore;
  readonly dashboard: SqlDashboardStore;
  readonly keyLife: SqliteKeyLifeStore;
  readonly systems: SqliteSystemsStore;
  readonly navigation: SqliteNavigation;
  private readonly batchReader: BatchReader | null;
  private readonly searchLoad = new TurnLoad();
  /** null: every page is read on the event loop (pagesOnThread false). */
  private readonly pageLoad: TurnLoad | null;
  /** The connection's statements as the page queries read them (pages.ts), made once rather than at every page. */
  private readonly pageArrays: Arrays = (sql, sameRead) => this.arrays(sql, sameRead);
  private readonly dataVersion: StatementSync;
  private readonly version: WindowedVersion;
  private readonly importListeners: (() => Promise<void>)[] = [];
  /** null for an in-memory database. */
  private readonly opened: OpenedFiles | null;

  constructor(options: SqliteStoreOptions) {
    const asked = options.writeWait ?? SERVER_WRITE_WAIT;
    // A write that finds an import writing this file knows it at once (import-marker.ts); an in-memory database has no other writer.
    const writeWait = options.path === ':memory:' ? asked : { ...asked, importRunning: () => importRunning(options.path) };
    super(openDatabase(options.path, BUSY_TIMEOUT_MS, options.mmapBytes ?? SQLITE_MMAP_MAX_BYTES), writeWait);
    this.path = options.path;
    this.searchTuning = options.searchTuning ?? {};
    this.searchIndex = options.searchIndex ?? true;
    this.importWaitMs = options.importWaitMs ?? IMPORT_WAIT_MS;
    this.pageLoad = options.pagesOnThread === true ? new TurnLoad() : null;
    this.db.exec('PRAGMA foreign_keys = ON');
    // SQLite copies a WAL into its database in whichever commit crosses this many pages, on the
    // event loop: at the default 1 000 that took ~20 ms under the request log's writes (now the
    // activity file's), every few seconds; 100 pages take ~2.5 ms. Imports keep the default on their
    // own connection.
    this.db.exec(`PRAGMA wal_autocheckpoint = ${SERVER_CHECKPOINT_PAGES}`);
    // The import's connection (withImport) does not attach it: its BEGIN IMMEDIATE would lock this file too.
    try {
      attachActivity(this.db, options.path);
      if (options.writable === true && options.path !== ':memory:') {
        refuseReadOnly(this.db, 'main', options.path, MAIN_HOLDS);
        refuseReadOnly(this.db, 'activity', activityPath(options.path), ACTIVITY_HOLDS);
      }
      migrateSqlite(this.db);
    } catch (error) {
      this.db.close();
      if (error instanceof DatabaseFileError) throw error;
      // A read-only activity file that lacks its tables fails at their creation, before the test.
      if (options.writable === true && isReadOnly(error)) throw notWritable(activityPath(options.path), ACTIVITY_HOLDS, error);
      throw explainUnopenable([options.path, activityPath(options.path)], error);
    }
    const sql = new SqliteSql(this.db, writeWait);
    this.access = this.usage = new SqliteAccessStore(sql);
    this.dashboard = new SqlDashboardStore(sql);
    this.keyLife = new SqliteKeyLifeStore(this.db, {
      activityFile: options.path === ':memory:' ? null : activityPath(options.path),
      checkpointPages: SERVER_CHECKPOINT_PAGES,
      onNotice: options.onNotice,
      writeWait,
    });
    this.systems = new SqliteSystemsStore(this.db, writeWait);
    this.dataVersion = this.db.prepare('PRAGMA data_version');
    this.dataVersion.setReturnArrays(true);
    // Outside the turn's read transaction, where data_version would not move (read-turn.ts).
    this.version = new WindowedVersion(() => {
      endReadTurn(this.db);
      return Number((this.dataVersion.get() as unknown as [number])[0]);
    });
    // An in-memory database is this connection's alone: no other thread can read it.
    const mmapBytes = options.mmapBytes ?? SQLITE_MMAP_MAX_BYTES;
    this.batchReader =
      options.path === ':memory:'
        ? null
        : new BatchReader({ path: options.path, busyTimeoutMs: BUSY_TIMEOUT_MS, mmapBytes }, { minIds: options.batchThreadMinIds ?? BATCH_THREAD_MIN_IDS });
    this.navigation = new SqliteNavigation(this.db, () => this.externalWriteVersion(), this.batchReader);
    this.opened = options.path === ':memory:' ? null : new OpenedFiles([options.path, activityPath(options.path)]);
  }

  /**
   * Changes whenever another connection (a CLI command, an import) has
   * committed to the file, and after this process's own imports: in-process
   * caches compare it before trusting what they hold. Commits on the main
   * connection (counts, the dashboard) do not change it. The data_version
   * check behind it runs once per freshness window (write-window.ts), which
   * is why every writer ends with settleWrites().
   */
  externalWriteVersion(): number {
    return this.version.current();
  }

  settleWrites(): Promise<void> {
    return settle();
  }

  onImportCommitted(listener: () => Promise<void>): void {
    this.importListeners.push(listener);
  }

  /**
   * With pagesOnThread, on the reader thread when several pages are asked in the same turn (see batch-reader.ts):
   * the event loop goes on with the other requests meanwhile. A lone client's page, and what the thread cannot
   * answer, is read here.
   */
  pageCodes(q: CodePageQuery): Promise<RawPage<string, CodeRecord>> {
    return this.readAside(
      this.pageLoad,
      (reader, version) => reader.pageCodes(q, version),
      () => pageCodes(this.pageArrays, q),
    );
  }

  /**
   * The reader thread's answer when this read comes with others in the same turn (load), else (or when the thread
   * cannot answer, or load is null) the read here on the event loop.
   */
  private async readAside<T>(load: TurnLoad | null, onThread: (reader: BatchReader, version: number) => Promise<T>, here: () => T | Promise<T>): Promise<T> {
    if (this.batchReader !== null && load?.note() === true) {
      try {
        return await onThread(this.batchReader, this.externalWriteVersion());
      } catch {
        // Read here instead, as a batch is.
      }
    }
    return here();
  }

  /**
   * On the reader thread (see batch-reader.ts) when others are searching at
   * the same time: a search reads pages scattered over the file, and on the
   * event loop it held every other request meanwhile. A lone client's search
   * is read here, where it does not pay the trip to the thread and back (two
   * thread wake-ups, 0.05–0.3 ms on a virtual machine, more than the read of
   * a first page). What the thread cannot answer is read here too.
   */
  searchCodes(q: CodeSearchQuery): Promise<RawPage<SearchKey, CodeRecord>> {
    return this.readAside(
      this.searchLoad,
      (reader, version) => reader.search(q, this.searchTuning, version),
      () => searchSqlite({ arrays: (sql) => this.arrays(sql) }, q, this.searchTuning),
    );
  }

  async codeJson(id: string): Promise<JsonText<CodeRecord> | null> {
    return this.codeJsonNow(id);
  }

  codeJsonNow(id: string): JsonText<CodeRecord> | null {
    const row = this.stmt('SELECT json FROM codes WHERE id = ?').get(id) as { json: string } | undefined;
    return row ? jsonText<CodeRecord>(row.json) : null;
  }

  async codeExists(id: string): Promise<boolean> {
    return this.stmt('SELECT 1 AS one FROM codes WHERE id = ?').get(id) !== undefined;
  }

  async countCodes(): Promise<number> {
    return Number((this.stmt('SELECT count(*) AS n FROM codes').get() as { n: number }).n);
  }

  async hasCodes(): Promise<boolean> {
    return this.stmt('SELECT 1 AS one FROM codes LIMIT 1').get() !== undefined;
  }

  /** As pageCodes. */
  pageChanges(q: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>> {
    return this.readAside(
      this.pageLoad,
      (reader, version) => reader.pageChanges(q, version),
      () => pageChanges(this.pageArrays, q),
    );
  }

  withImport<T>(fn: (tx: ImportTransaction) => Promise<T>): Promise<T> {
    return inImport(this.path, { searchIndex: this.searchIndex, waitMs: this.importWaitMs }, fn, async () => {
      const committedAt = performance.now();
      this.version.bump();
      for (const listener of this.importListeners) await listener();
      await settle(committedAt);
    });
  }

  withTransaction<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    // An in-memory database (tests: the server and the CLI refuse one) has no other connection: its own is used.
    return inTransaction(this.path === ':memory:' ? this.db : this.path, this.writeWait, fn, () => this.version.bump());
  }

  async getSetting(key: string): Promise<string | null> {
    const row = this.stmt('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  async ensureSetting(key: string, value: string): Promise<string> {
    // Read first: the INSERT needs the write lock even when the key exists, and
    // every process start calls this, also while an import holds that lock.
    const kept = await this.getSetting(key);
    if (kept !== null) return kept;
    await this.write('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', key, value);
    return (await this.getSetting(key))!;
  }

  /** `codebook backup`: a copy of both files from one snapshot each (backup-files.ts). */
  async backupTo(file: string): Promise<string[]> {
    return backupInto(this.db, file);
  }

  /** The database answers, and its files are still the ones this store opened (opened-files.ts). */
  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
    this.opened?.check();
  }

  async close(): Promise<void> {
    await this.batchReader?.close();
    await this.keyLife.close();
    endReadTurn(this.db);
    if (this.db.isOpen) this.db.close();
  }
}
