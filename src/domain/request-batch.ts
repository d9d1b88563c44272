/**
 * Requests of the request log, packed as they are recorded: each request's
 * numbers go into one Float64Array and its path and Request-Id into one byte
 * buffer, and the few strings that repeat (organisation, key, key prefix,
 * method, error code) are kept once, by index.
 *
 * Why: a server writes its log once a second, so every request's entry lived
 * for up to a second. As an object of its own (with its Request-Id and time
 * as new strings), each one outlived the young generation's collections,
 * which copied it twice and then promoted it for the old generation to
 * collect: under load the log cost the event loop more than its SQL did. In
 * buffers, a second of requests is a few allocations outside the heap, and a
 * batch goes to a writer thread as three values (the store's SQLite writer,
 * activity-writer.ts) instead of thousands of objects.
 */
import type { RequestLogEntry } from './key-life-records.ts';

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
    const at = this.reserve(3 * (e.path.length + e.requestId.length));
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

  /** Makes room for one more request and up to textBytes of text; returns where its text starts. */
  private reserve(textBytes: number): number {
    if ((this.length + 1) * FIELDS > this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
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

  /** Appends requests start to end of source. */
  private copy(source: RequestBatch, start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const s = source.numbers;
      const at = i * FIELDS;
      const textStart = s[at + TEXT_START]!;
      const textBytes = s[at + PATH_BYTES]! + s[at + ID_BYTES]!;
      const textAt = this.reserve(textBytes);
      this.text.set(source.text.subarray(textStart, textStart + textBytes), textAt);
      const n = this.numbers;
      const to = this.length * FIELDS;
      n.set(s.subarray(at, at + FIELDS), to);
      n[to + ORG] = this.intern(source.strings[s[at + ORG]!]!);
      n[to + KEY] = this.intern(source.strings[s[at + KEY]!]!);
      n[to + PREFIX] = this.intern(source.strings[s[at + PREFIX]!]!);
      n[to + METHOD] = this.intern(source.strings[s[at + METHOD]!]!);
      if (s[at + ERROR] !== NONE) n[to + ERROR] = this.intern(source.strings[s[at + ERROR]!]!);
      n[to + TEXT_START] = textAt;
      this.textEnd += textBytes;
      this.length++;
    }
  }
}
