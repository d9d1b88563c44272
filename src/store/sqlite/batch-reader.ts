/**
 * Batch lookups, searches and (when set to) pages on a thread of their own. A
 * 200-id batch is ~0.7 ms of SQLite work at 1 000 000 codes, nearly all of it
 * waiting on memory (each id is a walk down the B-tree to a random page); a
 * search page joins its hits, scattered over the file, to their records
 * (0.3–1.5 ms). On the event loop either would hold every other request for
 * that long and use only the event loop's core; here it runs beside the event
 * loop on a connection of its own, while the event loop goes on parsing,
 * checking keys and writing answers. Searches could move here only once the
 * server's per-second commits had left this file (activity.ts): the thread
 * began each search's snapshot cold after one, a 20–44 ms tail for a lone
 * client (bench/HISTORY.md).
 * With SQLITE_PAGES_ON_THREAD=1, the pages of /v1/codes, /v1/changes and
 * /v1/codes/{id}/changes come here too when several are asked in the same
 * turn of the event loop (the read cache answers those it keeps): a 50-code
 * page's query is ~40 % of its cost on the event loop, a 200-change page's
 * more, and under load the event loop's core was full while the other had
 * room. Not by default: the server then held up to ~90 MB more
 * (docs/decisions.md).
 *
 * The thread's batches share one read transaction (a snapshot of the file)
 * for as long as the store's data version (SqliteStore.externalWriteVersion,
 * which moves with every import and every commit of another process) stays
 * the same (SNAPSHOT_MAX_MS at most, see below). SQLite drops a connection's
 * whole map of the file and its page cache when it begins a read transaction
 * after another connection committed; the server's counts, request log and
 * rate counters, committed every second, are in a file of their own
 * (activity.ts) for that reason, but a key or an organisation written by the
 * server or the dashboard still commits to this one. A batch
 * is asked with the version the event loop holds when it arrives, so it sees
 * every import that returned before it was sent, as a read on the event loop
 * does. A snapshot holds the WAL back: a checkpoint cannot copy past the
 * oldest open snapshot, and the WAL starts over from its beginning only once
 * all of it was copied with no snapshot in it, which snapshots renewed back to
 * back never allow (nor, under a steady stream of batches, did a transaction a
 * batch: the WAL grew by every commit of the server). So each time the thread
 * lets a snapshot go (a new version, SNAPSHOT_MAX_MS of age, or no batch for
 * SNAPSHOT_IDLE_MS) it copies the WAL into the file itself (a passive
 * checkpoint, off the event loop), and once that copied all of it the
 * server's next commit starts the WAL over. After an import that committed
 * while batches came, that copy is the import's, and the batches asked
 * meanwhile wait for it (0.9–2.5 s for a 1 000 000-code import's part).
 *
 * Up to READER_THREADS threads, each with its own connection: the first starts
 * with the first batch that needs it, another only when every running thread
 * has something to answer (and then stays). Only the first (or the one that
 * replaces it when it dies) shares snapshots and copies the WAL as described above; the others (followers) read the
 * answers asked of them back to back in one snapshot, and let it go as soon
 * as none waits (BatchReaderInit.shareSnapshot). Each answers one message at
 * a time, in order. When it dies, what it was asked is refused
 * with the reason (the store then reads those batches on the event loop) and
 * another starts with a batch a few seconds later.
 */
import { AnsweringThread } from './answering-thread.ts';
import { jsonItems } from '../../domain/json-text.ts';
import type { BatchRecords } from '../../domain/navigation.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../../domain/pages.ts';
import type { ChangeRecord, CodeRecord } from '../../domain/records.ts';
import type { CodeSearchQuery, SearchKey } from '../../domain/search.ts';
import type { SearchTuning } from '../search-walk.ts';

/**
 * How long the thread's batches may share one snapshot of the file. On a
 * 1 000 000-code file (3.7 GB) with the server's counts committed every
 * second, 200-id batches a second at 32 connections: 136–198 with a snapshot
 * per batch, 269–309 with one shared up to 2 s, 343–412 up to 10 s.
 */
export const SNAPSHOT_MAX_MS = 10_000;
/**
 * A snapshot no batch has used for this long is let go: while it is held the
 * WAL grows by every commit of the server (under 9 000 single gets a second,
 * ~2.5 MB a second of request log).
 */
export const SNAPSHOT_IDLE_MS = 100;

/**
 * A thread after the first (a follower) reads the answers asked of it back to
 * back in one snapshot, let go once none waits and at most this long: a
 * transaction per answer cost it ~8 % of a 200-id batch, and a snapshot held
 * this long still lets the WAL start over soon after the first thread copies it.
 */
export const FOLLOWER_SNAPSHOT_MAX_MS = 100;

export interface BatchReaderInit {
  path: string;
  busyTimeoutMs: number;
  mmapBytes: number;
  /** Default SNAPSHOT_MAX_MS. */
  snapshotMaxMs?: number;
  /** Default SNAPSHOT_IDLE_MS. */
  snapshotIdleMs?: number;
  /**
   * False (a follower): a snapshot lasts only while answers wait back to back
   * (and at most snapshotMaxMs), is let go as soon as none waits, and nothing
   * is copied from the WAL. The pool's threads after the first: two threads
   * keeping snapshots between their answers, begun at different moments, would
   * always leave one open, and the WAL would never start over (see above).
   * Default true.
   */
  shareSnapshot?: boolean;
}

/** What the thread is asked: a batch lookup, a search page or a page of codes or changes, each read on the snapshot of its version. */
export type ReaderRequest = {
  seq: number;
  /** The store's data version when it was asked: a snapshot begun at another is not used for it. */
  version: number;
} & (
  | { kind: 'batch'; ids: readonly string[]; asOf: string | null }
  | { kind: 'search'; query: CodeSearchQuery; tuning: SearchTuning }
  | { kind: 'codes'; query: CodePageQuery }
  | { kind: 'changes'; query: ChangePageQuery }
);

export type ReaderResponse =
  | { seq: number; json: Uint8Array; missing: string[] }
  | { seq: number; page: Omit<RawPage<unknown>, 'json'> & { json: Uint8Array } }
  | { seq: number; error: string };

/**
 * How long the thread may go without answering anything, while it has
 * something to answer, before it is taken for stuck. A batch takes ~1 ms and
 * a search page up to ~0.5 ms at 1 000 000 codes (a long word's prefix query):
 * counted from its last answer, not from when each waiting one was asked, so a
 * long queue of slow reads that the thread works through is not taken for a
 * stuck thread.
 */
const ANSWER_DEADLINE_MS = 10_000;

type ReaderAnswer = BatchRecords | RawPage<unknown>;

/** One thread of the pool: it answers what it is asked in order, and may lead. */
class ReaderThread extends AnsweringThread<ReaderRequest, ReaderResponse, ReaderAnswer> {
  /** It keeps its snapshot between answers and copies the WAL (BatchReaderInit.shareSnapshot). */
  readonly leads: boolean;

  constructor(init: BatchReaderInit, onGone: (thread: ReaderThread) => void) {
    super(
      {
        entry: new URL('./batch-reader-worker.js', import.meta.url),
        workerData: init,
        // Its heap holds one batch at a time: under 1 MB for the bench's records, ~100 MB for 200 of the
        // largest a row may hold (32 KiB of text, escaped); the bound keeps a runaway from growing the process.
        resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 },
        deadlineMs: ANSWER_DEADLINE_MS,
        name: 'the batch reader thread',
      },
      readerAnswer,
      // What it was asked and did not answer is refused with the reason (the store then reads it on the event loop).
      (thread, error, unanswered) => {
        onGone(thread as ReaderThread);
        for (const waiting of unanswered) waiting.reject(error);
      },
    );
    this.leads = init.shareSnapshot ?? true;
  }
}

/** A response as the answer it carries, or the error it reports. */
function readerAnswer(response: ReaderResponse): ReaderAnswer {
  if ('json' in response) {
    const { json, missing } = response;
    return { json: Buffer.from(json.buffer, json.byteOffset, json.byteLength), missing };
  }
  // The page's bytes arrive as a Uint8Array (a Buffer does not cross a thread as one): the same bytes, seen as a Buffer.
  if ('page' in response) return { ...response.page, json: jsonItems<unknown>(response.page.json) };
  throw new Error(`read on the reader thread failed: ${response.error}`);
}

export interface BatchReaderOptions {
  /** Smaller batches are read on the event loop: the trip to the thread and back costs more than they do. */
  minIds: number;
  /** At most this many threads (default READER_THREADS); another starts only when every one has something to answer. */
  threads?: number;
  /** After a thread dies, no other starts for this long (the caller reads on the event loop meanwhile); default 5 s. */
  restartDelayMs?: number;
}

/**
 * Two threads: a batch's time is spent waiting on memory, one B-tree descent
 * per id, so one thread kept a core busy while the event loop used a quarter
 * of the other. The second starts only under concurrent batches or searches.
 */
export const READER_THREADS = 2;

export class BatchReader {
  readonly minIds: number;
  private readonly init: BatchReaderInit;
  private readonly maxThreads: number;
  private readonly restartDelayMs: number;
  private threads: ReaderThread[] = [];
  private restartAt = 0;
  private seq = 0;
  private closing: Promise<void> | null = null;

  constructor(init: BatchReaderInit, options: BatchReaderOptions) {
    this.init = init;
    this.minIds = options.minIds;
    this.maxThreads = Math.max(1, options.threads ?? READER_THREADS);
    this.restartDelayMs = options.restartDelayMs ?? 5_000;
  }

  /** version: the store's data version now (SqliteStore.externalWriteVersion). */
  read(ids: readonly string[], asOf: string | null, version: number): Promise<BatchRecords> {
    return this.ask({ seq: ++this.seq, version, kind: 'batch', ids, asOf }) as Promise<BatchRecords>;
  }

  /** One page of a search (searchSqlite), read on the thread; version as for read(). */
  search(query: CodeSearchQuery, tuning: SearchTuning, version: number): Promise<RawPage<SearchKey, CodeRecord>> {
    return this.ask({ seq: ++this.seq, version, kind: 'search', query, tuning }) as Promise<RawPage<SearchKey, CodeRecord>>;
  }

  /**
   * One page of /v1/codes (pageCodes), read on the thread that leads only; version as for read(). With pages on
   * both threads, the two and the event loop contended for two cores: uniform 200-change pages under load were
   * 19 % of L0 with both threads and 23–24 % with one, the server at 210–222 MB and 151–184 MB (bench/HISTORY.md,
   * "pages on the reader thread").
   */
  pageCodes(query: CodePageQuery, version: number): Promise<RawPage<string, CodeRecord>> {
    return this.ask({ seq: ++this.seq, version, kind: 'codes', query }, true) as Promise<RawPage<string, CodeRecord>>;
  }

  /** One page of /v1/changes or /v1/codes/{id}/changes (pageChanges), as pageCodes. */
  pageChanges(query: ChangePageQuery, version: number): Promise<RawPage<ChangeKey, ChangeRecord>> {
    return this.ask({ seq: ++this.seq, version, kind: 'changes', query }, true) as Promise<RawPage<ChangeKey, ChangeRecord>>;
  }

  /** How many answers each running thread has given, in the order they started (tests). */
  get answered(): number[] {
    return this.threads.map((thread) => thread.answered);
  }

  /** leader: to the thread that leads (the first), never to another; refused when none can run now. */
  private ask(request: ReaderRequest, leader = false): Promise<ReaderAnswer> {
    if (this.closing !== null) return Promise.reject(new Error('the store is closed'));
    const thread = leader ? this.leader() : this.pick();
    if (thread === null) return Promise.reject(new Error('the batch reader thread stopped; another starts shortly'));
    try {
      return thread.ask(request, undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The thread with the least to answer; a new one when every thread has something and there is room. */
  private pick(): ReaderThread | null {
    let best: ReaderThread | null = null;
    for (const thread of this.threads) if (best === null || thread.pending < best.pending) best = thread;
    if (best !== null && (best.pending === 0 || this.threads.length >= this.maxThreads)) return best;
    // A thread that cannot start (or keeps dying) must not cost every request a thread start.
    if (performance.now() < this.restartAt) return best;
    return this.start();
  }

  /** The thread that leads; when none runs (the first has not started, or died), one started in its place if it may start now. */
  private leader(): ReaderThread | null {
    const leading = this.threads.find((running) => running.leads);
    if (leading !== undefined) return leading;
    if (performance.now() < this.restartAt || this.threads.length >= this.maxThreads) return null;
    return this.start();
  }

  private start(): ReaderThread {
    // One thread (the first, or the one that replaces it when it dies) shares snapshots between its
    // answers and copies the WAL; the others share them only while answers wait.
    const leads = !this.threads.some((running) => running.leads);
    const init = leads
      ? this.init
      : { ...this.init, shareSnapshot: false, snapshotMaxMs: Math.min(this.init.snapshotMaxMs ?? SNAPSHOT_MAX_MS, FOLLOWER_SNAPSHOT_MAX_MS) };
    const thread = new ReaderThread(init, (gone) => this.gone(gone));
    this.threads.push(thread);
    return thread;
  }

  /** Refuses new batches, lets the ones asked finish (a request in flight at shutdown still gets its answer), then stops the threads. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const threads = this.threads;
      this.threads = [];
      await Promise.all(threads.map((thread) => thread.stop()));
    })();
    return this.closing;
  }

  private gone(thread: ReaderThread): void {
    const at = this.threads.indexOf(thread);
    if (at === -1) return;
    this.threads.splice(at, 1);
    this.restartAt = performance.now() + this.restartDelayMs;
  }
}
