/**
 * KeyLifeStore over node:sqlite, sharing the store's connection: the shared
 * queries, and the request log's append, made on a writer thread
 * (activity-writer.ts) that waits a moment for the activity file's lock, or
 * on the event loop without waiting for it.
 */
import type { DatabaseSync } from 'node:sqlite';
import { EVENT_LOOP_APPEND, THREAD_APPEND, type AppendLimits, type RequestBatch } from '../../domain/request-batch.ts';
import { SqlKeyLifeStore } from '../sql/key-life-queries.ts';
import { ActivityWriter, WRITER_BUSY_TIMEOUT_MS } from './activity-writer.ts';
import { writeActivity, type WriteWait } from './busy.ts';
import { insertRequests } from './request-log-insert.ts';
import { SqliteSql } from './sql.ts';

export class SqliteKeyLifeStore extends SqlKeyLifeStore {
  private readonly db: DatabaseSync;
  private readonly logSql: SqliteSql;
  /** Null for an in-memory database, which no other connection can reach: appended on the event loop. */
  private readonly writer: ActivityWriter | null;

  /** activityFile: the activity file's path, for the writer thread's own connection (null: in memory); onNotice: see ActivityWriter. */
  constructor(
    db: DatabaseSync,
    options: { activityFile: string | null; checkpointPages: number; onNotice?: (message: string) => void; writeWait?: WriteWait },
  ) {
    super(new SqliteSql(db, options.writeWait));
    this.db = db;
    // An import's lock on the main file is no reason for a write to the activity file to give up (busy.ts).
    this.logSql = new SqliteSql(db, options.writeWait && { ...options.writeWait, importRunning: undefined });
    this.writer =
      options.activityFile === null
        ? null
        : new ActivityWriter(
            { path: options.activityFile, busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS, checkpointPages: options.checkpointPages },
            (batch) => this.appendOnEventLoop(batch),
            options.onNotice,
          );
  }

  /**
   * On the writer thread a flush is one message (its entries copied once, to be handed over)
   * unless it is larger than the thread should decode at once; on the event loop (in memory, or
   * while no thread runs) a few hundred at a time.
   */
  get appendLimits(): AppendLimits {
    return this.writer?.threaded === true ? THREAD_APPEND : EVENT_LOOP_APPEND;
  }

  async appendRequests(batch: RequestBatch): Promise<boolean> {
    if (this.writer === null) return this.appendOnEventLoop(batch);
    return this.writer.append(batch);
  }

  /**
   * On the writer thread while one runs: a busy server appends a minute's requests between two
   * prunes, and deleting them on the event loop cost it about as much as appending them did.
   * What the thread could not do (the file locked, the thread gone) is done here, as before.
   */
  override async pruneRequests(orgId: string, before: string, keep: number): Promise<void> {
    if (this.writer !== null && (await this.writer.prune({ orgId, before, keep }))) return;
    await super.pruneRequests(orgId, before, keep);
  }

  protected override get requestLogSql(): SqliteSql {
    return this.logSql;
  }

  /** Waits for the appends sent to the writer thread and stops it. */
  async close(): Promise<void> {
    await this.writer?.close();
  }

  /** Never waits for the lock: the caller keeps the batch for its next flush. */
  private appendOnEventLoop(batch: RequestBatch): boolean {
    if (batch.length === 0) return true;
    const entries = batch.entries();
    return writeActivity(this.db, () => insertRequests(this.db, entries));
  }
}
