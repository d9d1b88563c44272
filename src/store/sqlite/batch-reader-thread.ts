/**
 * The batch reader's thread (see batch-reader.ts): a connection of its own to
 * the file, answering one batch lookup, search page or page of codes or
 * changes per message, in the order asked, from a snapshot its batches share
 * while the store's data version stays the same (at most snapshotMaxMs, and
 * while batches keep coming). Each time it lets a snapshot go it copies the
 * WAL into the file (a passive checkpoint), so the WAL can start over.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { ownsItsBuffer } from '../../domain/json-text.ts';
import { batchReader } from './batch-read.ts';
import { SNAPSHOT_IDLE_MS, SNAPSHOT_MAX_MS, type BatchReaderInit, type ReaderRequest, type ReaderResponse } from './batch-reader.ts';
import { pageChanges, pageCodes } from './pages.ts';
import { searchSqlite } from './search.ts';
import { prepareArrays } from './statements.ts';

const {
  path,
  busyTimeoutMs,
  mmapBytes,
  snapshotMaxMs = SNAPSHOT_MAX_MS,
  snapshotIdleMs = SNAPSHOT_IDLE_MS,
  shareSnapshot = true,
} = workerData as BatchReaderInit;
// Opened for reading and writing so that it may checkpoint, but never created (mode=rw): a file
// that is gone (deleted, or replaced by a rename) makes the open fail instead of starting an
// empty database beside the server's. query_only refuses every statement that would write.
const url = pathToFileURL(path);
url.searchParams.set('mode', 'rw');
const db = new DatabaseSync(url);
db.exec('PRAGMA query_only = 1');
db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
db.exec(`PRAGMA mmap_size = ${mmapBytes}`);
const read = batchReader(db);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** The read transaction open now: the data version it was begun for, and when. */
let snapshot: { version: number; since: number } | null = null;
/** When the last batch was asked. */
let askedAt = Number.NEGATIVE_INFINITY;

/**
 * Ends the snapshot and copies into the file what of the WAL no other reader
 * or open transaction holds back; once all of it is copied, the next commit
 * can start the WAL over. A copy that fails fails no batch: the next one tries.
 */
function endSnapshot(): void {
  if (db.isTransaction) db.exec('COMMIT');
  snapshot = null;
  if (!shareSnapshot) return;
  try {
    checkpoint.get();
  } catch {
    // Left to the next snapshot's end, or to the server's own checkpoints.
  }
}

/** Keeps the open snapshot when it was begun for this version less than snapshotMaxMs ago; begins another otherwise. */
function snapshotFor(version: number): void {
  const now = performance.now();
  askedAt = now;
  if (snapshot !== null && (snapshot.version !== version || now - snapshot.since >= snapshotMaxMs)) endSnapshot();
  if (snapshot === null) {
    // Deferred: the snapshot is taken by the batch's own statement, after this message arrived.
    db.exec('BEGIN');
    snapshot = { version, since: now };
  }
}

// Between batches the snapshot holds the WAL back for nothing: an idle thread lets it go.
setInterval(
  () => {
    const now = performance.now();
    try {
      if (snapshot !== null && (now - askedAt >= snapshotIdleMs || now - snapshot.since >= snapshotMaxMs)) endSnapshot();
    } catch {
      // The next batch tries again.
    }
  },
  Math.max(5, Math.min(snapshotIdleMs, snapshotMaxMs) / 2),
).unref();

/** Prepared statements of the searches and pages, by SQL, returning arrays (as SqliteStatements.arrays does on the event loop). */
const statementsBySql = new Map<string, StatementSync>();
const arrays = (sql: string): StatementSync => {
  let statement = statementsBySql.get(sql);
  if (statement === undefined) statementsBySql.set(sql, (statement = prepareArrays(db, sql)));
  return statement;
};

/** An answer ready to post, with the buffers it hands over. */
interface Reply {
  response: ReaderResponse;
  transfer: ArrayBuffer[];
}

/**
 * Bytes to transfer, not copy, to the event loop: they need an ArrayBuffer of their own (a small Buffer shares
 * Node's pool). An empty page's bytes are one Buffer shared by every empty page (pages.ts): transferred, it would be
 * detached for all of them, and the next empty page's transfer would fail. A new empty array goes instead.
 */
function handedOver(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength > 0 && ownsItsBuffer(bytes) ? bytes : new Uint8Array(bytes);
}

// Every await in searchSqlite is on SQLite's synchronous reads, so a message is answered in full
// before the next one is taken: the answers keep the order of the questions.
async function answer(request: ReaderRequest): Promise<Reply> {
  const { seq, version } = request;
  let response: ReaderResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    snapshotFor(version);
    if (request.kind !== 'batch') {
      const page =
        request.kind === 'search'
          ? await searchSqlite({ arrays }, request.query, request.tuning)
          : request.kind === 'codes'
            ? pageCodes(arrays, request.query)
            : pageChanges(arrays, request.query);
      const bytes = handedOver(page.json);
      response = { seq, page: { ...page, json: bytes } };
      transfer = [bytes.buffer as ArrayBuffer];
    } else {
      const { json, missing } = read(request.ids, request.asOf);
      const bytes = handedOver(json);
      response = { seq, json: bytes, missing };
      transfer = [bytes.buffer as ArrayBuffer];
    }
  } catch (error) {
    // The next batch starts from a snapshot of its own, whatever state this one left.
    try {
      endSnapshot();
    } catch {
      // The COMMIT failed too: the snapshot stays marked open, and the next new version or the idle timer ends it again.
    }
    response = { seq, error: error instanceof Error ? error.message : String(error) };
  }
  return { response, transfer };
}

/** A follower's snapshot, once nothing more waits: let go, so that it holds the WAL back only while it reads. */
function letFollowerSnapshotGo(): void {
  if (shareSnapshot) return;
  try {
    endSnapshot();
  } catch {
    // Left open: the next new version or the idle timer ends it.
  }
}

/**
 * Answers a message, then every message already waiting (taken off the port
 * here, in order), so that a follower knows when none waits. Every await in
 * answer is on SQLite's synchronous reads: no other message event runs
 * meanwhile, and draining counts messages anyway.
 *
 * A follower lets its snapshot go before it posts the last answer, not after:
 * whoever gets that answer and then commits finds no snapshot of this thread
 * holding the WAL back, so the commit can start the WAL over.
 */
let draining = false;
const queued: ReaderRequest[] = [];
async function drain(first: ReaderRequest): Promise<void> {
  queued.push(first);
  if (draining) return;
  draining = true;
  try {
    for (let request = queued.shift(); request !== undefined; request = queued.shift()) {
      const { response, transfer } = await answer(request);
      const next = receiveMessageOnPort(parentPort!);
      if (next !== undefined) queued.push(next.message as ReaderRequest);
      if (queued.length === 0) letFollowerSnapshotGo();
      parentPort!.postMessage(response, transfer);
    }
  } finally {
    draining = false;
  }
}

parentPort!.on('message', (request: ReaderRequest) => void drain(request));
