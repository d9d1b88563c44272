/**
 * The request log's writer thread (see activity-writer.ts): a connection of
 * its own to the activity file, appending one batch per message, in the order
 * sent, each in one transaction.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { RequestBatch, type PackedRequests } from '../../domain/request-batch.ts';
import { isBusy } from './busy.ts';
import { isReadOnly, sqliteReason } from './read-only.ts';
import { insertRequests } from './request-log-insert.ts';
import { WRITER_NICE, type ActivityWriterInit, type PruneOrder, type WriteRequest, type WriteResponse } from './activity-writer.ts';
import { pruneRequestLog } from '../sql/request-log-prune.ts';
import type { SqlValue } from '../sql/sql.ts';

const { path, busyTimeoutMs, checkpointPages } = workerData as ActivityWriterInit;

function open(): DatabaseSync {
  // Never created (mode=rw): the store's connection made the file and its tables before any append.
  const url = pathToFileURL(path);
  url.searchParams.set('mode', 'rw');
  const opened = new DatabaseSync(url);
  try {
    opened.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    opened.exec('PRAGMA synchronous = NORMAL');
    // The WAL is copied into the file here, after this thread's commits, not by the event loop's next commit of counts.
    opened.exec(`PRAGMA wal_autocheckpoint = ${checkpointPages}`);
  } catch (error) {
    opened.close();
    throw error;
  }
  return opened;
}

/**
 * The thread's connection; null once a write found it read-only. SQLite opens a file it may
 * not write (at the moment of the open) read-only, silently, and the connection stays so: it is
 * closed, and opened again for the next message, until one can write (read-only.ts).
 */
let db: DatabaseSync | null = open();

function connection(): DatabaseSync {
  return (db ??= open());
}

/** Closes a connection that could not write; the next message opens another. */
function reopenLater(): void {
  statements.clear();
  try {
    db?.close();
  } catch {
    // Closed already, or closing failed: either way it is not used again.
  }
  db = null;
}

/**
 * The log can wait; the requests cannot. On Linux a thread has a nice value of its own
 * (/proc/thread-self names its id): at 10 the scheduler gives the event loop ~9 times this
 * thread's share of a core they both want. Elsewhere the thread keeps the process's.
 */
function yieldToTheEventLoop(): void {
  try {
    // `PID/task/TID`: only this process's own /proc, never a thread of another one.
    const [pid, , tid] = readlinkSync('/proc/thread-self').split('/');
    if (Number(pid) === process.pid) setPriority(Number(tid), WRITER_NICE);
  } catch {
    // No /proc, or not allowed: the default priority.
  }
}
yieldToTheEventLoop();

function append(request: { seq: number; batch: PackedRequests }): WriteResponse {
  // Decoded before the lock is taken: the event loop's own writes to the file wait for none of it.
  const entries = RequestBatch.unpack(request.batch).entries();
  let conn: DatabaseSync | null = null;
  try {
    conn = connection();
    conn.exec('BEGIN IMMEDIATE');
    insertRequests(conn, entries);
    conn.exec('COMMIT');
    return { seq: request.seq, written: true };
  } catch (error) {
    if (conn?.isTransaction === true) conn.exec('ROLLBACK');
    if (isBusy(error)) return { seq: request.seq, written: false };
    // Opened read-only, or not opened at all (conn null): nothing written, tried again on a new connection.
    if (conn === null || isReadOnly(error)) {
      reopenLater();
      return { seq: request.seq, unwritable: sqliteReason(error) };
    }
    return { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
}

const statements = new Map<string, StatementSync>();
const statement = (query: string): StatementSync => {
  let prepared = statements.get(query);
  if (prepared === undefined) statements.set(query, (prepared = connection().prepare(query)));
  return prepared;
};

/**
 * Each statement in a transaction of its own (the event loop's commits of counts wait for one
 * slice at most); every step is synchronous, so the prune ends before the next message is read.
 */
async function prune(seq: number, order: PruneOrder): Promise<WriteResponse> {
  const sql = {
    firstId: async (query: string, params: SqlValue[]) => {
      const row = statement(query).get(...(params as SQLInputValue[])) as { id: number } | undefined;
      return row === undefined ? null : Number(row.id);
    },
    run: async (query: string, params: SqlValue[]) => Number(statement(query).run(...(params as SQLInputValue[])).changes),
  };
  try {
    await pruneRequestLog(sql, order.orgId, order.before, order.keep, async () => undefined);
    return { seq, written: true };
  } catch (error) {
    if (isBusy(error)) return { seq, written: false };
    // Not done here: the caller prunes on the event loop; the next message opens another connection.
    if (db === null || isReadOnly(error)) {
      reopenLater();
      return { seq, written: false };
    }
    return { seq, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort!.on('message', (request: WriteRequest) => {
  if ('batch' in request) parentPort!.postMessage(append(request));
  else void prune(request.seq, request.prune).then((response) => parentPort!.postMessage(response));
});
