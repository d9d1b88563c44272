/**
 * A cache of byte strings in one buffer allocated once, outside the V8 heap,
 * written as a ring: each entry is appended after the last one, and what the
 * new bytes would overwrite is evicted first (first in, first out). Keyed by
 * string, with a small value (meta) beside the bytes in the heap.
 *
 * Why not a Map of strings or Buffers: under traffic spread over more records
 * than the cache holds, almost every request inserts an entry and evicts one.
 * An entry lives long enough to be promoted to V8's old space, then dies there:
 * the old space fills with dead entries between two full collections, and V8
 * lets it grow to several times what is alive (measured: a 24 MB cache of
 * strings held the server at 418 MB RSS where the same traffic uncached took
 * 178 MB). A Buffer per entry moves the same churn to external memory. Here
 * the bytes are copied into memory that never becomes garbage: the cache
 * costs its buffer once it is full, and an insert leaves only its key and a
 * small record (≈ ENTRY_OVERHEAD) behind when evicted.
 */
import { Doorkeeper } from './doorkeeper.ts';

/** What an entry costs in the heap beyond its bytes: the Map slot, the key, the record (measured after a full collection: ≈ 130 B with a flat key, ≈ 195 B with a key concatenated as the read cache makes them). */
export const ENTRY_OVERHEAD = 200;

/**
 * The share of the bound that goes to the index unless a ring says otherwise
 * (indexShare): it caps the number of entries, enough to fill the buffer with
 * entries of ~1.4 KB and more (7/8 of the bound over maxBytes / 8 /
 * ENTRY_OVERHEAD entries). A ring of smaller entries wants more (the read
 * cache: read-cache.ts).
 */
export const INDEX_SHARE = 1 / 8;

interface Slot<M> {
  start: number;
  length: number;
  meta: M;
}

export interface ByteRingOptions {
  /** Bytes for the buffer and the index together; the index gets indexShare of them (INDEX_SHARE by default), ENTRY_OVERHEAD an entry. */
  maxBytes: number;
  /** Once the ring has evicted, a key enters only on its second sight within a recent window (see doorkeeper.ts). */
  doorkeeper?: boolean;
  /** The share of maxBytes for the index (INDEX_SHARE by default); the buffer gets the rest. */
  indexShare?: number;
}

export class ByteRing<M = undefined> {
  readonly maxBytes: number;
  readonly #capacity: number;
  readonly #maxEntries: number;
  readonly #doorkeeper: Doorkeeper | null;
  /** Insertion order is address order from the oldest entry on: eviction takes from the front. */
  readonly #slots = new Map<string, Slot<M>>();
  #buffer: Buffer | null = null;
  #head = 0;
  #used = 0;
  #evictions = 0;
  /** Evicted since the last clear: from then on the doorkeeper decides. */
  #full = false;

  constructor({ maxBytes, doorkeeper = false, indexShare = INDEX_SHARE }: ByteRingOptions) {
    this.maxBytes = maxBytes;
    const index = Math.floor(maxBytes * indexShare);
    this.#maxEntries = Math.floor(index / ENTRY_OVERHEAD);
    this.#capacity = maxBytes - index;
    this.#doorkeeper = doorkeeper && this.#maxEntries > 0 ? new Doorkeeper() : null;
  }

  /** Entries evicted to make room, ever. */
  get evictions(): number {
    return this.#evictions;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Bytes held: the entries' bytes and their index estimate. */
  get bytes(): number {
    return this.#used + this.#slots.size * ENTRY_OVERHEAD;
  }

  /** Bytes of memory the ring reserves once it has wrapped (the buffer), for tests and metrics. */
  get capacity(): number {
    return this.#capacity;
  }

  has(key: string): boolean {
    return this.#slots.has(key);
  }

  /** The entry's bytes as text (UTF-8), a new string of its own. */
  text(key: string): { text: string; meta: M } | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    return { text: this.#buffer!.toString('utf8', slot.start, slot.start + slot.length), meta: slot.meta };
  }

  /** The entry's bytes, copied: a later insert may overwrite them in the ring while a socket still sends the copy. */
  copy(key: string): { bytes: Buffer; meta: M } | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    return { bytes: Buffer.from(this.#buffer!.subarray(slot.start, slot.start + slot.length)), meta: slot.meta };
  }

  /**
   * Keeps text (as UTF-8) or bytes under key; false when they were not kept:
   * larger than an eighth of the buffer, or (the ring full) turned away by the doorkeeper.
   */
  set(key: string, value: string | Buffer, meta: M): boolean {
    this.delete(key);
    if (this.#maxEntries === 0 || (this.#full && this.#doorkeeper !== null && !this.#doorkeeper.secondSight(key))) return false;
    if (typeof value === 'string' && value.length > this.#capacity / 8) return false; // UTF-8 is never shorter
    const buffer = (this.#buffer ??= Buffer.allocUnsafeSlow(this.#capacity));
    let start: number;
    let length: number;
    if (typeof value === 'string' && this.#head + value.length * 3 <= this.#capacity) {
      // Room at the head for the longest UTF-8 the text can have: write first (Buffer.byteLength would cost
      // as much as the copy, 5 µs for 20 KB), then evict what the bytes written landed on, before anything reads.
      start = this.#head;
      length = buffer.write(value, start, 'utf8');
      this.#evictWhile((slot) => slot.start >= start && slot.start < start + length);
      if (length > this.#capacity / 8) return false;
      this.#head = start + length;
      while (this.#slots.size >= this.#maxEntries) this.#evictOldest();
    } else {
      length = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
      if (length > this.#capacity / 8) return false;
      start = this.#reserve(length);
      if (typeof value === 'string') buffer.write(value, start, 'utf8');
      else value.copy(buffer, start);
    }
    this.#slots.set(key, { start, length, meta });
    this.#used += length;
    return true;
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#used -= slot.length;
  }

  clear(): void {
    this.#slots.clear();
    this.#used = 0;
    this.#head = 0;
    this.#full = false;
  }

  /** Frees [start, start + length) at the head, evicting the oldest entries in the way. */
  #reserve(length: number): number {
    let start = this.#head;
    if (start + length > this.#capacity) {
      // The rest of the buffer is too short: what is left there is the oldest, and goes; the ring starts over at 0.
      this.#evictWhile((slot) => slot.start >= start);
      start = 0;
    }
    this.#evictWhile((slot) => slot.start >= start && slot.start < start + length);
    while (this.#slots.size >= this.#maxEntries) this.#evictOldest();
    this.#head = start + length;
    return start;
  }

  #evictWhile(inTheWay: (slot: Slot<M>) => boolean): void {
    for (const [key, slot] of this.#slots) {
      if (!inTheWay(slot)) return;
      this.#evict(key, slot);
    }
  }

  #evictOldest(): void {
    for (const [key, slot] of this.#slots) return this.#evict(key, slot);
  }

  #evict(key: string, slot: Slot<M>): void {
    this.#slots.delete(key);
    this.#used -= slot.length;
    this.#evictions++;
    this.#full = true;
  }
}
