/**
 * The batch reader's thread (see batch-reader.ts): a read-only connection of
 * its own to the file, answering one batch lookup per message, in the order
 * asked, from a snapshot its batches share while the store's data version
 * stays the same (and at most snapshotMaxMs).
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { batchReader } from './batch-read.ts';
import { SNAPSHOT_MAX_MS, type BatchReaderInit, type BatchRequest, type BatchResponse } from './batch-reader.ts';

const { path, busyTimeoutMs, mmapBytes, snapshotMaxMs = SNAPSHOT_MAX_MS } = workerData as BatchReaderInit;
// Read-only: it creates no file and no folder, sets no journal mode, and cannot write. A file
// that is gone (deleted, or replaced by a rename) makes the open fail instead of starting an
// empty database beside the server's.
const db = new DatabaseSync(path, { readOnly: true });
db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
db.exec(`PRAGMA mmap_size = ${mmapBytes}`);
const read = batchReader(db);

/** The read transaction open now: the data version it was begun for, and when. */
let snapshot: { version: number; since: number } | null = null;

function endSnapshot(): void {
  snapshot = null;
  if (db.isTransaction) db.exec('COMMIT');
}

/** Begins a snapshot unless the open one was begun for this version and is young enough. */
function snapshotFor(version: number): void {
  const now = performance.now();
  if (snapshot !== null && (snapshot.version !== version || now - snapshot.since >= snapshotMaxMs)) endSnapshot();
  if (snapshot === null) {
    // Deferred: the snapshot is taken by the batch's own statement, after this message arrived.
    db.exec('BEGIN');
    snapshot = { version, since: now };
  }
}

// An idle thread lets go of its snapshot too: the WAL's checkpoints wait for no batch.
setInterval(
  () => {
    if (snapshot !== null && performance.now() - snapshot.since >= snapshotMaxMs) endSnapshot();
  },
  Math.max(10, snapshotMaxMs / 2),
).unref();

parentPort!.on('message', ({ seq, ids, asOf, version }: BatchRequest) => {
  let response: BatchResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    snapshotFor(version);
    const { json, missing } = read(ids, asOf);
    // Handed over, not copied: the bytes need an ArrayBuffer of their own (a small Buffer shares Node's pool).
    const bytes = json.byteOffset === 0 && json.buffer.byteLength === json.byteLength ? json : new Uint8Array(json);
    response = { seq, json: bytes, missing };
    transfer = [bytes.buffer as ArrayBuffer];
  } catch (error) {
    // The next batch starts from a snapshot of its own, whatever state this one left.
    try {
      endSnapshot();
    } catch {
      // Nothing more to undo: the connection has no transaction.
    }
    response = { seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response, transfer);
});
