/**
 * The batch reader's thread (see batch-reader.ts): a connection of its own to
 * the file, answering one batch lookup per message, in the order asked.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { batchReader } from './batch-read.ts';
import { openDatabase } from './connection.ts';
import type { BatchReaderInit, BatchRequest, BatchResponse } from './batch-reader.ts';

const { path, busyTimeoutMs, mmapBytes } = workerData as BatchReaderInit;
const db = openDatabase(path, busyTimeoutMs, mmapBytes);
// It only reads: a write here would be a bug, refused by SQLite itself.
db.exec('PRAGMA query_only = ON');
const read = batchReader(db);

parentPort!.on('message', ({ seq, ids, asOf }: BatchRequest) => {
  let response: BatchResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    const { json, missing } = read(ids, asOf);
    // The bytes are handed over, not copied: batchRecords gave them an ArrayBuffer of their own.
    response = { seq, json, missing };
    transfer = [json.buffer as ArrayBuffer];
  } catch (error) {
    response = { seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response, transfer);
});
