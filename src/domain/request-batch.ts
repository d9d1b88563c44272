/**
 * Requests of the request log, packed as they are recorded: each request's
 * numbers go into one Float64Array and its path and Request-Id into one byte
 * buffer, and the few strings that repeat (organisation, key, key prefix,
 * method, error code) are kept once, by index.
 *
 * Why: a server wrote its log once a second, so every request's entry lived
 * for up to a second. As an object of its own (with its Request-Id and time
 * as new strings), each one outlived the young generation's collections,
 * which copied it twice and then promoted it for the old generation to
 * collect: under load the log cost the event loop more than its SQL did. In
 * buffers, a second of requests is a few allocations outside the heap, and a
 * batch goes to a writer thread as three values (the store's SQLite writer,
 * activity-writer.ts) instead of thousands of objects.
 */
import type { RequestLogEntry } from './key-life-records.ts';

/**
 * Requests appended per transaction where the append holds the event loop, which is free
 * between them: 500 took ~10 ms on the event loop of a server under load (a CPU profile at
 * 10 000 requests a second), 200 take ~4.
 */
export const EVENT_LOOP_APPEND_SLICE = 200;

/** The most one append should carry: requests, and bytes of their paths and Request-Ids. */
export interface AppendLimits {
  requests: number;
  textBytes: number;
}

/** Where the append holds the event loop: a few hundred requests, whatever their paths. */
export const EVENT_LOOP_APPEND: AppendLimits = { requests: EVENT_LOOP_APPEND_SLICE, textBytes: Number.POSITIVE_INFINITY };

/**
 * Where a thread of its own appends (SQLite's writer thread): any flush's worth of ordinary
 * requests in one message (a tenth of a second at 15 000 a second is 1 500 requests, ~100 KB of
 * text), yet never more than its bounded heap decodes at once: 20 000 requests with 16 000-byte
 * paths in one message, 320 MB of text, ran it out of memory.
 */
export const THREAD_APPEND: AppendLimits = { requests: 5_000, textBytes: 1 << 20 };

/** What a request adds: an entry with its time as a number (ms), turned into text only when read back. */
export interface RequestToLog extends Omit<RequestLogEntry, 'at'> {
  atMs: number;
}

/** A batch as it crosses to another thread (structured clone): plain arrays of exactly its length. */
export interface PackedRequests {
  numbers: Float64Array<ArrayBuffer>;
  text: Uint8Array<ArrayBuffer>;
  strings: string[];
}

// Per request, in `numbers`: its time, status, duration, five string indexes, then where its text starts, the path's and the Request-Id's byte lengths.
const AT = 0;
const STATUS = 1;
const DURATION = 2;
const ORG = 3;
const KEY = 4;
const PREFIX = 5;
const METHOD = 6;
const ERROR = 7;
const TEXT_START = 8;
const PATH_BYTES = 9;
const ID_BYTES = 10;
const FIELDS = 11;
/** The error code's index when there is none. */
const NONE = -1;

export class RequestBatch {
  private numbers: Float64Array<ArrayBuffer>;
  private text: Uint8Array<ArrayBuffer>;
  private textView: Buffer;
  private textEnd = 0;
  private readonly strings: string[];
  private readonly index = new Map<string, number>();
  length = 0;

  constructor(capacity = 256) {
    this.numbers = new Float64Array(Math.max(1, capacity) * FIELDS);
    this.text = new Uint8Array(Math.max(64, capacity * 64));
    this.textView = Buffer.from(this.text.buffer);
    this.strings = [];
  }

  /** A batch of these entries (their `at` is an ISO timestamp, as the store returns it). */
  static of(entries: readonly RequestLogEntry[]): RequestBatch {
    const batch = new RequestBatch(entries.length);
    for (const e of entries) batch.add({ ...e, atMs: Date.parse(e.at) });
    return batch;
  }

  /** The batch another thread was sent (pack()). */
  static unpack(packed: PackedRequests): RequestBatch {
    const batch = new RequestBatch(0);
    batch.numbers = packed.numbers;
    batch.text = packed.text;
    batch.textView = Buffer.from(packed.text.buffer, packed.text.byteOffset, packed.text.byteLength);
    batch.textEnd = packed.text.byteLength;
    for (const s of packed.strings) batch.intern(s);
    batch.length = packed.numbers.length / FIELDS;
    return batch;
  }

  add(e: RequestToLog): void {
    const at = this.reserve(1, 3 * (e.path.length + e.requestId.length));
    const n = this.numbers;
    const i = this.length * FIELDS;
    const pathBytes = this.textView.write(e.path, this.textEnd, 'utf8');
    const idBytes = this.textView.write(e.requestId, this.textEnd + pathBytes, 'utf8');
    n[i + AT] = e.atMs;
    n[i + STATUS] = e.status;
    n[i + DURATION] = e.durationMs;
    n[i + ORG] = this.intern(e.orgId);
    n[i + KEY] = this.intern(e.keyId);
    n[i + PREFIX] = this.intern(e.keyPrefix);
    n[i + METHOD] = this.intern(e.method);
    n[i + ERROR] = e.errorCode === null ? NONE : this.intern(e.errorCode);
    n[i + TEXT_START] = at;
    n[i + PATH_BYTES] = pathBytes;
    n[i + ID_BYTES] = idBytes;
    this.textEnd += pathBytes + idBytes;
    this.length++;
  }

  /** Entry i, as the store writes it. */
  entry(i: number): RequestLogEntry {
    const n = this.numbers;
    const at = i * FIELDS;
    const start = n[at + TEXT_START]!;
    const pathEnd = start + n[at + PATH_BYTES]!;
    const error = n[at + ERROR]!;
    return {
      orgId: this.strings[n[at + ORG]!]!,
      keyId: this.strings[n[at + KEY]!]!,
      keyPrefix: this.strings[n[at + PREFIX]!]!,
      at: new Date(n[at + AT]!).toISOString(),
      method: this.strings[n[at + METHOD]!]!,
      path: this.textView.toString('utf8', start, pathEnd),
      status: n[at + STATUS]!,
      errorCode: error === NONE ? null : this.strings[error]!,
      durationMs: n[at + DURATION]!,
      requestId: this.textView.toString('utf8', pathEnd, pathEnd + n[at + ID_BYTES]!),
    };
  }

  entries(): RequestLogEntry[] {
    return Array.from({ length: this.length }, (_, i) => this.entry(i));
  }

  /** The organisations with a request in the batch. */
  orgIds(): Set<string> {
    const orgs = new Set<string>();
    for (let i = 0; i < this.length; i++) orgs.add(this.strings[this.numbers[i * FIELDS + ORG]!]!);
    return orgs;
  }

  /** Where an append from request start ends: within the limits, and at least one request. */
  sliceEnd(start: number, limits: AppendLimits): number {
    const last = Math.min(this.length, start + limits.requests);
    if (start >= last || limits.textBytes === Number.POSITIVE_INFINITY) return last;
    const n = this.numbers;
    const budget = n[start * FIELDS + TEXT_START]! + limits.textBytes;
    let end = start + 1;
    for (; end < last; end++) {
      const at = end * FIELDS;
      if (n[at + TEXT_START]! + n[at + PATH_BYTES]! + n[at + ID_BYTES]! > budget) break;
    }
    return end;
  }

  /** Requests start to end (exclusive) in a batch of their own. */
  slice(start: number, end = this.length): RequestBatch {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    const batch = new RequestBatch(to - from);
    batch.copy(this, from, to);
    return batch;
  }

  /** This batch followed by other, at most max requests in all. */
  concat(other: RequestBatch, max = Infinity): RequestBatch {
    const mine = Math.min(this.length, max);
    const theirs = Math.max(0, Math.min(other.length, max - mine));
    const batch = new RequestBatch(mine + theirs);
    batch.copy(this, 0, mine);
    batch.copy(other, 0, theirs);
    return batch;
  }

  /** The batch as exact copies, to be transferred to another thread. */
  pack(): PackedRequests {
    return { numbers: this.numbers.slice(0, this.length * FIELDS), text: this.text.slice(0, this.textEnd), strings: [...this.strings] };
  }

  private intern(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.index.set(s, i);
    }
    return i;
  }

  /** Makes room for this many more requests and up to textBytes of text; returns where their text starts. */
  private reserve(requests: number, textBytes: number): number {
    const fields = (this.length + requests) * FIELDS;
    if (fields > this.numbers.length) {
      const grown = new Float64Array(Math.max(fields, this.numbers.length * 2));
      grown.set(this.numbers);
      this.numbers = grown;
    }
    if (this.textEnd + textBytes > this.text.length) {
      const grown = new Uint8Array(Math.max(this.text.length * 2, this.textEnd + textBytes));
      grown.set(this.text.subarray(0, this.textEnd));
      this.text = grown;
      this.textView = Buffer.from(grown.buffer);
    }
    return this.textEnd;
  }

  /**
   * Appends requests start to end of source: their numbers and their text (the texts of
   * consecutive requests are consecutive) in one copy each, then each string index mapped
   * to this batch's, and each text position moved by the same amount.
   */
  private copy(source: RequestBatch, start: number, end: number): void {
    const count = end - start;
    if (count <= 0) return;
    const s = source.numbers;
    const textFrom = s[start * FIELDS + TEXT_START]!;
    const last = (end - 1) * FIELDS;
    const textTo = s[last + TEXT_START]! + s[last + PATH_BYTES]! + s[last + ID_BYTES]!;
    const textAt = this.reserve(count, textTo - textFrom);
    this.text.set(source.text.subarray(textFrom, textTo), textAt);
    const n = this.numbers;
    const first = this.length * FIELDS;
    n.set(s.subarray(start * FIELDS, end * FIELDS), first);
    const mapped: number[] = [];
    const map = (i: number): number => (mapped[i] ??= this.intern(source.strings[i]!));
    const shift = textAt - textFrom;
    for (let at = first; at < first + count * FIELDS; at += FIELDS) {
      n[at + ORG] = map(n[at + ORG]!);
      n[at + KEY] = map(n[at + KEY]!);
      n[at + PREFIX] = map(n[at + PREFIX]!);
      n[at + METHOD] = map(n[at + METHOD]!);
      if (n[at + ERROR] !== NONE) n[at + ERROR] = map(n[at + ERROR]!);
      n[at + TEXT_START] = n[at + TEXT_START]! + shift;
    }
    this.textEnd += textTo - textFrom;
    this.length += count;
  }
}
