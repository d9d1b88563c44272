/**
 * A worker thread that answers numbered messages, one at a time, in the order
 * sent: the bookkeeping that the batch reader's threads (batch-reader.ts) and
 * the request log's writer (activity-writer.ts) share.
 *
 * - An idle thread does not keep the process alive; one with something to
 *   answer does.
 * - It is taken for stuck when it answers nothing for deadlineMs while
 *   something waits, counted from its last answer (so that a long queue it
 *   works through is not taken for a stuck thread), and stopped.
 * - When it dies, stops answering, or sends an answer that cannot be read, it
 *   is gone: onGone gets what it had not answered, once, and its owner decides
 *   what becomes of each (refused, or done some other way).
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface Numbered {
  seq: number;
}

/** What one message waits for: its answer, and what its owner kept beside it. */
export interface Unanswered<A, C> {
  context: C;
  resolve: (answer: A) => void;
  reject: (error: Error) => void;
}

export interface AnsweringThreadOptions {
  /** The thread's entry (a JavaScript file that switches the compile cache on first, see src/main.js). */
  entry: URL;
  workerData: unknown;
  resourceLimits: ResourceLimits;
  deadlineMs: number;
  /** Names the thread in errors: "the batch reader thread". */
  name: string;
}

/** Q: the messages it is sent; R: its responses; A: the answer a response carries; C: what the owner keeps beside each message. */
export class AnsweringThread<Q extends Numbered, R extends Numbered, A, C = undefined> {
  readonly worker: Worker;
  /** Answers given. */
  answered = 0;
  /** The last message sent: answered in order, so once it is settled every earlier one is. */
  last: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<number, Unanswered<A, C>>();
  private readonly options: AnsweringThreadOptions;
  private readonly read: (response: R) => A;
  private readonly onGone: (thread: AnsweringThread<Q, R, A, C>, error: Error, unanswered: Unanswered<A, C>[]) => void;
  private deadline: NodeJS.Timeout | undefined;
  private gone = false;

  /** read turns a response into its answer (or throws the error it reports). */
  constructor(
    options: AnsweringThreadOptions,
    read: (response: R) => A,
    onGone: (thread: AnsweringThread<Q, R, A, C>, error: Error, unanswered: Unanswered<A, C>[]) => void,
  ) {
    this.options = options;
    this.read = read;
    this.onGone = onGone;
    this.worker = new Worker(options.entry, { workerData: options.workerData, resourceLimits: options.resourceLimits });
    this.worker.unref();
    this.worker.on('message', (response: R) => this.answer(response));
    this.worker.on('error', (error: Error) => this.lost(error));
    this.worker.on('messageerror', (error: Error) => this.giveUp(error));
    this.worker.on('exit', (code) => this.lost(new Error(`${options.name} stopped (exit code ${code})`)));
  }

  /** Messages sent and not answered. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Sends the message; throws (nothing left waiting) when it cannot be sent. */
  ask(message: Q, context: C, transfer: ArrayBuffer[] = []): Promise<A> {
    const answer = new Promise<A>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(message.seq, { context, resolve, reject });
    });
    try {
      this.worker.postMessage(message, transfer);
    } catch (error) {
      this.waiting.delete(message.seq);
      this.settleDeadline();
      throw error;
    }
    if (this.waiting.size === 1) this.settleDeadline();
    this.last = answer.catch(() => undefined);
    return answer;
  }

  /** Waits for every answer, then stops the thread. */
  async stop(): Promise<void> {
    await this.last;
    clearTimeout(this.deadline);
    await this.worker.terminate();
  }

  private answer(response: R): void {
    const waiting = this.waiting.get(response.seq);
    if (waiting === undefined) return;
    this.waiting.delete(response.seq);
    this.answered++;
    this.settleDeadline();
    let answer: A;
    try {
      answer = this.read(response);
    } catch (error) {
      return waiting.reject(error as Error);
    }
    waiting.resolve(answer);
  }

  /** Something waits: the deadline starts again from now. Nothing does: no deadline, and the process may exit. */
  private settleDeadline(): void {
    clearTimeout(this.deadline);
    if (this.waiting.size === 0) {
      this.worker.unref();
      return;
    }
    this.deadline = setTimeout(
      () => this.giveUp(new Error(`${this.options.name} answered nothing for ${this.options.deadlineMs} ms with ${this.waiting.size} messages waiting`)),
      this.options.deadlineMs,
    );
    this.deadline.unref();
  }

  private giveUp(error: Error): void {
    this.lost(error);
    void this.worker.terminate();
  }

  private lost(error: Error): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.deadline);
    const unanswered = [...this.waiting.values()];
    this.waiting.clear();
    this.onGone(this, error, unanswered);
  }
}
