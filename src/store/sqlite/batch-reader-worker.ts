/**
 * The batch reader's thread (see batch-reader.ts): a read-only connection of
 * its own to the file, answering one batch lookup per message, in the order
 * asked.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { batchReader } from './batch-read.ts';
import type { BatchReaderInit, BatchRequest, BatchResponse } from './batch-reader.ts';

const { path, busyTimeoutMs, mmapBytes } = workerData as BatchReaderInit;
// Read-only: it creates no file and no folder, sets no journal mode, and cannot write. A file
// that is gone (deleted, or replaced by a rename) makes the open fail instead of starting an
// empty database beside the server's.
const db = new DatabaseSync(path, { readOnly: true });
db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
db.exec(`PRAGMA mmap_size = ${mmapBytes}`);
const read = batchReader(db);

parentPort!.on('message', ({ seq, ids, asOf }: BatchRequest) => {
  let response: BatchResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    const { json, missing } = read(ids, asOf);
    // Handed over, not copied: the bytes need an ArrayBuffer of their own (a small Buffer shares Node's pool).
    const bytes = json.byteOffset === 0 && json.buffer.byteLength === json.byteLength ? json : new Uint8Array(json);
    response = { seq, json: bytes, missing };
    transfer = [bytes.buffer as ArrayBuffer];
  } catch (error) {
    response = { seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response, transfer);
});
