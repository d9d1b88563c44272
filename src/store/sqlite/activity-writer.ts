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
 *
 * A thread whose connection cannot write the file (SQLite opened it
 * read-only, see read-only.ts) closes it and opens another for the next
 * batch; meanwhile its batches come back unwritten and wait for the next
 * flush, like those of a locked file. The first of an outage rejects with
 * DatabaseFileError (the caller logs it), the others answer false, and the
 * first batch written after it tells onNotice: one line at each end of the
 * outage, however many flushes it lasts.
 */
import type { PackedRequests, RequestBatch } from '../../domain/request-batch.ts';
import { DatabaseFileError } from '../../errors.ts';
import { AnsweringThread, type Unanswered } from './answering-thread.ts';
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

/** A prune of one organisation's request log (see request-log-prune.ts). */
export interface PruneOrder {
  orgId: string;
  before: string;
  keep: number;
}

/** An append of a batch, or a prune. */
export type WriteRequest = { seq: number; batch: PackedRequests } | { seq: number; prune: PruneOrder };

/** unwritable: the thread's connection could not write the file (SQLite's reason); it opens another for the next message. */
export type WriteResponse = { seq: number; written: boolean } | { seq: number; error: string } | { seq: number; unwritable: string };

/** The thread: it answers whether each batch was written (or prune done), and keeps the batch (or null) beside its message. */
type WriterThread = AnsweringThread<WriteRequest, WriteResponse, boolean, RequestBatch | null>;

export class ActivityWriter {
  private readonly init: ActivityWriterInit;
  private readonly onEventLoop: (batch: RequestBatch) => boolean;
  private thread: WriterThread | null = null;
  private seq = 0;
  private restartAt = 0;
  private closed = false;
  private readonly onNotice: (message: string) => void;
  /** Whether the thread could not write the file at its last try (an outage reported, its end not yet). */
  private unwritable = false;

  /** onEventLoop: the same append on the store's own connection, while no thread runs; onNotice: told when an outage ends. */
  constructor(init: ActivityWriterInit, onEventLoop: (batch: RequestBatch) => boolean, onNotice: (message: string) => void = () => undefined) {
    this.init = init;
    this.onEventLoop = onEventLoop;
    this.onNotice = onNotice;
  }

  /** A response as whether the batch was written, or the error it reports (at most one per outage, see the top of this file). */
  private read(response: WriteResponse): boolean {
    if ('error' in response) throw new Error(`the request log's append failed: ${response.error}`);
    if ('unwritable' in response) {
      if (this.unwritable) return false;
      this.unwritable = true;
      throw new DatabaseFileError(
        `the request log's writer cannot write ${this.init.path} (${response.unwritable}): its entries wait in memory, ` +
          'and are written as soon as the file can be written; give the user the server runs as write access to it, its -wal and -shm files and their folder',
      );
    }
    if (response.written) {
      // Read back at once on the event loop's connection (read-turn.ts).
      noteWrite();
      if (this.unwritable) {
        this.unwritable = false;
        this.onNotice(`the request log's writer can write ${this.init.path} again: the entries that waited are being written`);
      }
    }
    return response.written;
  }

  /** Appends the batch in one transaction; false, nothing written, while the file is locked. */
  async append(batch: RequestBatch): Promise<boolean> {
    if (batch.length === 0) return true;
    const thread = this.running();
    if (thread === null) return this.onEventLoop(batch);
    const packed = batch.pack();
    let answer: Promise<boolean>;
    try {
      // The batch is kept beside the message: a thread that dies with it unanswered still has it written (gone()).
      answer = thread.ask({ seq: ++this.seq, batch: packed }, batch, [packed.numbers.buffer, packed.text.buffer]);
    } catch {
      // Not sent: written here instead.
      return this.onEventLoop(batch);
    }
    return answer;
  }

  /**
   * Prunes on the thread, which deletes on its own connection while the event loop serves
   * requests; false when it did not (the file was locked, or no thread runs or it died first):
   * the caller prunes on the event loop instead.
   */
  async prune(order: PruneOrder): Promise<boolean> {
    const thread = this.running();
    if (thread === null) return false;
    try {
      return await thread.ask({ seq: ++this.seq, prune: order }, null);
    } catch {
      return false;
    }
  }

  /** Whether the next append goes to a thread (one runs, or one would start for it). */
  get threaded(): boolean {
    return !this.closed && (this.thread !== null || performance.now() >= this.restartAt);
  }

  /** Waits for the appends sent, then stops the thread; later appends are written on the event loop. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = null;
    await thread?.stop();
  }

  /** The thread, started if none runs (null while closed, or for a while after one died). */
  private running(): WriterThread | null {
    if (this.closed) return null;
    if (this.thread !== null) return this.thread;
    if (performance.now() < this.restartAt) return null;
    this.thread = new AnsweringThread(
      {
        entry: new URL('./activity-writer-worker.js', import.meta.url),
        workerData: this.init,
        // One message at a time, within THREAD_APPEND (request-batch.ts): its entries, decoded at once, fit.
        resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 },
        deadlineMs: ANSWER_DEADLINE_MS,
        name: "the request log's writer thread",
      },
      (response) => this.read(response),
      (thread, error, unanswered) => this.gone(thread, error, unanswered),
    );
    return this.thread;
  }

  /** The thread is gone: what it was sent and did not answer is written on the event loop. */
  private gone(thread: WriterThread, cause: Error, unanswered: Unanswered<boolean, RequestBatch | null>[]): void {
    if (this.thread === thread) {
      this.thread = null;
      this.restartAt = performance.now() + RESTART_DELAY_MS;
    }
    for (const waiting of unanswered) {
      // A prune it did not answer: not done (see prune()).
      if (waiting.context === null) {
        waiting.resolve(false);
        continue;
      }
      try {
        waiting.resolve(this.onEventLoop(waiting.context));
      } catch (error) {
        waiting.reject(new Error(`the request log's append failed on the event loop after its thread failed (${cause.message})`, { cause: error }));
      }
    }
  }
}
