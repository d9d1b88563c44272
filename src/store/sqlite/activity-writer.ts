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
 * flush). The thread starts with the first append. When it dies, or answers
 * nothing for ANSWER_DEADLINE_MS, the batches it was sent are written on the
 * event loop instead, and so are the appends of the next RESTART_DELAY_MS,
 * before another thread starts: nothing it was sent is lost, and a batch it
 * had committed in the instant before it died, unanswered, is written twice.
 */
import { Worker } from 'node:worker_threads';
import type { PackedRequests, RequestBatch } from '../../domain/request-batch.ts';
import { noteWrite } from './read-turn.ts';

/** How long the thread waits for the activity file's write lock (the server's own counts hold it for a millisecond or two). */
export const WRITER_BUSY_TIMEOUT_MS = 250;
/** The writer thread's nice value, where the system lets a thread have its own (Linux). */
export const WRITER_NICE = 10;
const RESTART_DELAY_MS = 5_000;
/** A slice takes the thread a millisecond or two, and a busy file WRITER_BUSY_TIMEOUT_MS: silence for this long is a stuck thread. */
const ANSWER_DEADLINE_MS = 10_000;

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
  batch: RequestBatch;
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
  /** Runs while the thread has something to answer: ANSWER_DEADLINE_MS from its last answer. */
  private deadline: NodeJS.Timeout | undefined;
  /** Settles once everything sent so far is answered. */
  private last: Promise<unknown> = Promise.resolve();

  /** onEventLoop: the same append on the store's own connection, while no thread runs. */
  constructor(init: ActivityWriterInit, onEventLoop: (batch: RequestBatch) => boolean) {
    this.init = init;
    this.onEventLoop = onEventLoop;
  }

  /** Appends the batch in one transaction; false, nothing written, while the file is locked. */
  async append(batch: RequestBatch): Promise<boolean> {
    if (batch.length === 0) return true;
    const thread = this.running();
    if (thread === null) return this.onEventLoop(batch);
    const seq = ++this.seq;
    const written = new Promise<boolean>((resolve, reject) => {
      if (this.waiting.size === 0) thread.ref();
      this.waiting.set(seq, { batch, resolve, reject });
    });
    this.last = written.catch(() => undefined);
    if (this.waiting.size === 1) this.armDeadline();
    try {
      const packed = batch.pack();
      thread.postMessage({ seq, batch: packed } satisfies WriteRequest, [packed.numbers.buffer, packed.text.buffer]);
    } catch (error) {
      // Not sent: written here instead.
      const waiting = this.waiting.get(seq)!;
      this.waiting.delete(seq);
      if (this.waiting.size === 0) this.idle();
      this.settle(waiting, error);
    }
    return written;
  }

  /** Waits for the appends sent, then stops the thread; later appends are written on the event loop. */
  async close(): Promise<void> {
    this.closed = true;
    await this.last;
    const thread = this.thread;
    this.thread = null;
    clearTimeout(this.deadline);
    await thread?.terminate();
  }

  /** The thread, started if none runs (null while closed, or for a while after one died). */
  private running(): Worker | null {
    if (this.closed) return null;
    if (this.thread !== null) return this.thread;
    if (performance.now() < this.restartAt) return null;
    const thread = new Worker(new URL('./activity-writer-worker.js', import.meta.url), {
      workerData: this.init,
      // One slice at a time: a few hundred requests (200 with 16 000-character paths fit).
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 },
    });
    thread.unref();
    thread.on('message', (response: WriteResponse) => this.answered(response));
    thread.on('error', (error: Error) => this.gone(thread, error));
    thread.on('messageerror', (error: Error) => this.giveUp(thread, error));
    thread.on('exit', (code) => this.gone(thread, new Error(`the request log's writer thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }

  private answered(response: WriteResponse): void {
    const waiting = this.waiting.get(response.seq);
    if (waiting === undefined) return;
    this.waiting.delete(response.seq);
    if (this.waiting.size === 0) this.idle();
    else this.armDeadline();
    if ('error' in response) return waiting.reject(new Error(`the request log's append failed: ${response.error}`));
    // Read back at once on the event loop's connection (read-turn.ts).
    if (response.written) noteWrite();
    waiting.resolve(response.written);
  }

  /** Nothing waits: the thread neither keeps the process alive nor is watched. */
  private idle(): void {
    clearTimeout(this.deadline);
    this.thread?.unref();
  }

  /** Starts the deadline again from now (after an answer, or for a first append). */
  private armDeadline(): void {
    clearTimeout(this.deadline);
    const thread = this.thread;
    if (thread === null) return;
    this.deadline = setTimeout(
      () => this.giveUp(thread, new Error(`the request log's writer thread answered nothing for ${ANSWER_DEADLINE_MS} ms`)),
      ANSWER_DEADLINE_MS,
    );
    this.deadline.unref();
  }

  private giveUp(thread: Worker, error: Error): void {
    this.gone(thread, error);
    void thread.terminate();
  }

  /** The thread is gone: what it was sent and did not answer is written on the event loop. */
  private gone(thread: Worker, error: Error): void {
    if (this.thread !== thread) return;
    this.thread = null;
    clearTimeout(this.deadline);
    this.restartAt = performance.now() + RESTART_DELAY_MS;
    const unanswered = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of unanswered) this.settle(waiting, error);
  }

  /** Writes a batch the thread did not answer for; its append fails only if that write fails too. */
  private settle(waiting: Waiting, cause: unknown): void {
    try {
      waiting.resolve(this.onEventLoop(waiting.batch));
    } catch (error) {
      waiting.reject(new Error(`the request log's append failed on the event loop after its thread failed (${String(cause)})`, { cause: error }));
    }
  }
}
