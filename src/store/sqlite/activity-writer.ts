/**
 * The request log's appends on a thread of their own. Every request of a
 * known key is logged, so a server under load appends thousands of rows a
 * second; on the event loop each cost ~4 µs of SQLite (the row, its index
 * entry, the commit's pages) and a share of the WAL's copies into the file,
 * a sixth of a cached record's whole request (bench/HISTORY.md). Here the
 * rows are written beside the event loop, on a connection of the thread's
 * own to the activity file, and the event loop only hands over the batch's
 * buffers (request-batch.ts).
 *
 * A batch is written in one transaction or not at all: the answer is false,
 * nothing written, when another connection kept the file's write lock for
 * longer than WRITER_BUSY_TIMEOUT_MS (the caller keeps the batch for its next
 * flush). The thread starts with the first append. When it dies, the appends
 * it was sent fail (the caller keeps those batches too) and later ones are
 * written on the event loop until another thread starts, RESTART_DELAY_MS
 * later.
 */
import { Worker } from 'node:worker_threads';
import type { PackedRequests, RequestBatch } from '../../domain/request-batch.ts';
import { noteWrite } from './read-turn.ts';

/** How long the thread waits for the activity file's write lock (the server's own counts hold it for a millisecond or two). */
export const WRITER_BUSY_TIMEOUT_MS = 250;
const RESTART_DELAY_MS = 5_000;
/** The writer thread's nice value, where the system lets a thread have its own (Linux). */
export const WRITER_NICE = 10;

export interface ActivityWriterInit {
  /** The activity file (activity.ts). */
  path: string;
  busyTimeoutMs: number;
  /** The thread's wal_autocheckpoint, in pages. */
  checkpointPages: number;
}

export interface WriteRequest {
  seq: number;
  batch: PackedRequests;
}

export type WriteResponse = { seq: number; written: boolean } | { seq: number; error: string };

interface Waiting {
  resolve: (written: boolean) => void;
  reject: (error: Error) => void;
}

export class ActivityWriter {
  private readonly init: ActivityWriterInit;
  private readonly onEventLoop: (batch: RequestBatch) => boolean;
  private thread: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private restartAt = 0;
  private closed = false;
  /** Settles once everything sent so far is answered. */
  private last: Promise<unknown> = Promise.resolve();

  /** onEventLoop: the same append on the store's own connection, while no thread runs. */
  constructor(init: ActivityWriterInit, onEventLoop: (batch: RequestBatch) => boolean) {
    this.init = init;
    this.onEventLoop = onEventLoop;
  }

  /** Appends the batch in one transaction; false, nothing written, while the file is locked. */
  append(batch: RequestBatch): Promise<boolean> {
    if (batch.length === 0) return Promise.resolve(true);
    const thread = this.running();
    if (thread === null) return Promise.resolve(this.onEventLoop(batch));
    const seq = ++this.seq;
    const written = new Promise<boolean>((resolve, reject) => {
      if (this.waiting.size === 0) thread.ref();
      this.waiting.set(seq, { resolve, reject });
    });
    const packed = batch.pack();
    thread.postMessage({ seq, batch: packed } satisfies WriteRequest, [packed.numbers.buffer, packed.text.buffer]);
    this.last = written.catch(() => undefined);
    return written;
  }

  /** Waits for the appends sent, then stops the thread; later appends are written on the event loop. */
  async close(): Promise<void> {
    this.closed = true;
    await this.last;
    const thread = this.thread;
    this.thread = null;
    await thread?.terminate();
  }

  /** The thread, started if none runs (null while closed, or for a while after one died). */
  private running(): Worker | null {
    if (this.thread !== null) return this.thread;
    if (this.closed || performance.now() < this.restartAt) return null;
    const thread = new Worker(new URL('./activity-writer-worker.js', import.meta.url), {
      workerData: this.init,
      // One batch at a time: a few hundred requests.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 },
    });
    thread.unref();
    thread.on('message', (response: WriteResponse) => this.answered(response));
    thread.on('error', (error: Error) => this.gone(thread, error));
    thread.on('messageerror', (error: Error) => {
      this.gone(thread, error);
      void thread.terminate();
    });
    thread.on('exit', (code) => this.gone(thread, new Error(`the request log's writer thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }

  private answered(response: WriteResponse): void {
    const waiting = this.waiting.get(response.seq);
    if (waiting === undefined) return;
    this.waiting.delete(response.seq);
    if (this.waiting.size === 0) this.thread?.unref();
    if ('error' in response) return waiting.reject(new Error(`the request log's append failed: ${response.error}`));
    // Read back at once on the event loop's connection (read-turn.ts).
    if (response.written) noteWrite();
    waiting.resolve(response.written);
  }

  private gone(thread: Worker, error: Error): void {
    if (this.thread !== thread) return;
    this.thread = null;
    this.restartAt = performance.now() + RESTART_DELAY_MS;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
