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
import { insertRequests } from './request-log-insert.ts';
import { WRITER_NICE, type ActivityWriterInit, type PruneOrder, type WriteRequest, type WriteResponse } from './activity-writer.ts';
import { pruneRequestLog } from '../sql/request-log-prune.ts';
import type { SqlValue } from '../sql/sql.ts';

const { path, busyTimeoutMs, checkpointPages } = workerData as ActivityWriterInit;
// Never created (mode=rw): the store's connection made the file and its tables before any append.
const url = pathToFileURL(path);
url.searchParams.set('mode', 'rw');
const db = new DatabaseSync(url);
db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
db.exec('PRAGMA synchronous = NORMAL');
// The WAL is copied into the file here, after this thread's commits, not by the event loop's next commit of counts.
db.exec(`PRAGMA wal_autocheckpoint = ${checkpointPages}`);

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
  try {
    db.exec('BEGIN IMMEDIATE');
    insertRequests(db, entries);
    db.exec('COMMIT');
    return { seq: request.seq, written: true };
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    if (isBusy(error)) return { seq: request.seq, written: false };
    return { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
}

const statements = new Map<string, StatementSync>();
const statement = (query: string): StatementSync => {
  let prepared = statements.get(query);
  if (prepared === undefined) statements.set(query, (prepared = db.prepare(query)));
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
    return { seq, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort!.on('message', (request: WriteRequest) => {
  if ('batch' in request) parentPort!.postMessage(append(request));
  else void prune(request.seq, request.prune).then((response) => parentPort!.postMessage(response));
});
