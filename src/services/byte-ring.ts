/**
 * A cache of byte strings in one buffer allocated once, outside the V8 heap,
 * written as a ring: each entry is appended after the last one, and what the
 * new bytes would overwrite is evicted first (first in, first out), unless it
 * was read since it was kept: then it gets a second chance, moved to the head
 * as if kept again (CLOCK, as in a page cache). Keyed by string, with a small
 * value (meta) beside the bytes in the heap.
 *
 * Why the second chance: under the skewed traffic of a real API, first in,
 * first out evicts a hot record as soon as a cold one that came after it.
 * `node bench/cache-sim.ts` (the read cache at its default 24 MiB under the
 * bench's Zipf picks): records over 1 000 000 codes hit 72.4 % of the time
 * instead of 70.1 % (73.5 % at the 200 B an entry counted before), and 22 KB
 * pages over 5 000 positions 75.6 % instead of 69.1 % (bench/HISTORY.md,
 * "2026-12-07, later").
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

/**
 * What an entry costs in the heap beyond its bytes: the Map slot, the key, the
 * record and its place in the order. Measured after a full collection, before
 * the order was kept apart from the Map: ≈ 130 B with a flat key, ≈ 195 B with
 * a key concatenated as the read cache makes them. With the key in the record,
 * the read flag and the place in the order, 201–223 B under the read cache's
 * keys, depending on where the order is in its cycle of compactions.
 */
export const ENTRY_OVERHEAD = 232;

/**
 * Characters of a key that ENTRY_OVERHEAD covers (the read cache's keys of
 * records are 12–30); each character beyond is counted as a byte more, against
 * the index's share, so that long keys (a page's URL, up to 512) cannot hold
 * the index past its bound. URLs and most code ids are one byte a character in
 * V8's strings.
 */
export const KEY_CHARS_COUNTED = 32;

/** What a key costs beyond ENTRY_OVERHEAD. */
function keyExtra(key: string): number {
  return key.length > KEY_CHARS_COUNTED ? key.length - KEY_CHARS_COUNTED : 0;
}

/**
 * The share of the bound that goes to the index unless a ring says otherwise
 * (indexShare): it caps the number of entries, enough to fill the buffer with
 * entries of ~1.4 KB and more (7/8 of the bound over maxBytes / 8 /
 * ENTRY_OVERHEAD entries). A ring of smaller entries wants more (the read
 * cache: read-cache.ts).
 */
export const INDEX_SHARE = 1 / 8;

/**
 * Second chances one set() may give before it evicts the oldest whatever it
 * was: a bound on the bytes one insert moves when most entries were read.
 */
const MAX_SECOND_CHANCES = 8;

/** The order is compacted once the front has passed this many entries and a quarter of it. */
const MIN_PASSED = 1024;
/** …or once more deleted entries than this and an eighth of those held wait in it. */
const MIN_GONE = 64;

interface Slot<M> {
  readonly key: string;
  start: number;
  length: number;
  meta: M;
  /** Read since it was kept (or since its last second chance). */
  read: boolean;
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
  /** The index's share of the bound: entries at ENTRY_OVERHEAD and their keys' extra characters. */
  readonly #indexBytes: number;
  /** keyExtra() of the keys held. */
  #keyBytes = 0;
  readonly #doorkeeper: Doorkeeper | null;
  readonly #slots = new Map<string, Slot<M>>();
  /**
   * The entries in address order from the oldest on (#order[#front] and
   * after): eviction takes from the front. Entries deleted stay here until
   * the front passes them or the order is compacted. Not the Map's own
   * order: a Map used as a queue leaves a hole at its front for every entry
   * taken, and finding the first entry walks over them (~8 µs a time at
   * 31 000 entries).
   */
  #order: (Slot<M> | null)[] = [];
  #front = 0;
  /** Entries in the order that are no longer held. */
  #gone = 0;
  #buffer: Buffer | null = null;
  #head = 0;
  /** Second chances left to the set() under way. */
  #chances = 0;
  #used = 0;
  #evictions = 0;
  /** Evicted since the last clear: from then on the doorkeeper decides. */
  #full = false;

  constructor({ maxBytes, doorkeeper = false, indexShare = INDEX_SHARE }: ByteRingOptions) {
    this.maxBytes = maxBytes;
    const index = Math.floor(maxBytes * indexShare);
    this.#maxEntries = Math.floor(index / ENTRY_OVERHEAD);
    this.#indexBytes = index;
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
    return this.#used + this.#slots.size * ENTRY_OVERHEAD + this.#keyBytes;
  }

  /** Bytes of memory the ring reserves once it has wrapped (the buffer), for tests and metrics. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Entries the order holds, those deleted or passed and not yet dropped included: for tests. */
  get orderLength(): number {
    return this.#order.length;
  }

  has(key: string): boolean {
    return this.#slots.has(key);
  }

  /** The entry's bytes as text (UTF-8), a new string of its own. */
  text(key: string): { text: string; meta: M } | undefined {
    const slot = this.#read(key);
    if (slot === undefined) return undefined;
    return { text: this.#buffer!.toString('utf8', slot.start, slot.start + slot.length), meta: slot.meta };
  }

  /** The entry's bytes, copied: a later insert may overwrite them in the ring while a socket still sends the copy. */
  copy(key: string): { bytes: Buffer; meta: M } | undefined {
    const slot = this.#read(key);
    if (slot === undefined) return undefined;
    return { bytes: Buffer.from(this.#buffer!.subarray(slot.start, slot.start + slot.length)), meta: slot.meta };
  }

  /**
   * The entry's bytes in place, not copied: valid only until the next set() or
   * clear(), so they must be copied (or digested) before anything else is kept.
   */
  view(key: string): { bytes: Buffer; meta: M } | undefined {
    const slot = this.#read(key);
    if (slot === undefined) return undefined;
    return { bytes: this.#buffer!.subarray(slot.start, slot.start + slot.length), meta: slot.meta };
  }

  /** The entry under key, marked read (it gets a second chance before eviction). */
  #read(key: string): Slot<M> | undefined {
    const slot = this.#slots.get(key);
    if (slot !== undefined) slot.read = true;
    return slot;
  }

  /**
   * Keeps text (as UTF-8) or bytes under key; false when they were not kept:
   * larger than an eighth of the buffer, or (the ring full) turned away by the doorkeeper.
   */
  set(key: string, value: string | Buffer, meta: M): boolean {
    this.delete(key);
    if (this.#maxEntries === 0 || (this.#full && this.#doorkeeper !== null && !this.#doorkeeper.secondSight(key))) return false;
    // A Buffer's length, or a text's: its UTF-8 is never shorter.
    if (value.length > this.#capacity / 8) return false;
    const extra = keyExtra(key);
    if (ENTRY_OVERHEAD + extra > this.#indexBytes / 8) return false;
    const buffer = (this.#buffer ??= Buffer.allocUnsafeSlow(this.#capacity));
    this.#chances = MAX_SECOND_CHANCES;
    // Room in the index for one more entry and its key (this bounds the count at #maxEntries too).
    while ((this.#slots.size + 1) * ENTRY_OVERHEAD + this.#keyBytes + extra > this.#indexBytes) this.#releaseOldest();
    let start: number;
    let length: number;
    if (typeof value === 'string' && this.#head + value.length * 3 <= this.#capacity && this.#noneReadWithin(this.#head, value.length * 3)) {
      // Room at the head for the longest UTF-8 the text can have, and nothing there that was read since it was
      // kept: write first (Buffer.byteLength would cost as much as the copy, 5 µs for 20 KB), then evict what the
      // bytes written landed on, before anything reads.
      start = this.#head;
      length = buffer.write(value, start, 'utf8');
      this.#evictWhile((slot) => slot.start >= start && slot.start < start + length);
      if (length > this.#capacity / 8) return false;
      this.#head = start + length;
    } else {
      length = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
      if (length > this.#capacity / 8) return false;
      start = this.#reserve(length);
      if (typeof value === 'string') buffer.write(value, start, 'utf8');
      else value.copy(buffer, start);
    }
    const slot: Slot<M> = { key, start, length, meta, read: false };
    this.#slots.set(key, slot);
    this.#order.push(slot);
    this.#used += length;
    this.#keyBytes += extra;
    return true;
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#used -= slot.length;
    this.#keyBytes -= keyExtra(key);
    // Left in the order for the front to pass, its slot and key alive until then; compacted once more than an
    // eighth of the entries held wait there, so that they cost at most an eighth more than is counted.
    if (++this.#gone > this.#slots.size / 8 + MIN_GONE) this.#compact();
  }

  clear(): void {
    this.#slots.clear();
    this.#order = [];
    this.#front = 0;
    this.#gone = 0;
    this.#used = 0;
    this.#keyBytes = 0;
    this.#head = 0;
    this.#full = false;
  }

  /**
   * Frees [start, start + length) at the head and returns start. The oldest
   * entries in the way go, unless read since they were kept: such an entry
   * gets a second chance, moved down to the head (it is the oldest, so
   * nothing lies between), and the head moves past it.
   */
  #reserve(length: number): number {
    let start = this.#head;
    for (;;) {
      if (start + length > this.#capacity) {
        // The rest of the buffer is too short: what is left there is the oldest, and goes; the ring starts over at 0.
        this.#evictWhile((slot) => slot.start >= start);
        start = 0;
      }
      const slot = this.#oldest();
      if (slot === undefined || slot.start < start || slot.start >= start + length) break;
      if (!this.#secondChance(slot)) {
        this.#evict(slot);
        continue;
      }
      this.#pass();
      this.#moveTo(slot, start);
      start += slot.length;
    }
    this.#head = start + length;
    return start;
  }

  /**
   * Makes room for one more entry in the index: the oldest goes, or, when it
   * was read since it was kept, moves to the head as the newest (a copy of
   * its bytes) and the next oldest is considered.
   */
  #releaseOldest(): void {
    const slot = this.#oldest()!;
    if (!this.#secondChance(slot)) return this.#evict(slot);
    // Out of the order while its place at the head is reserved: #reserve may reach its old bytes, which the move
    // reads before anything is written over them (#reserve only moves entries that lie after them).
    this.#pass();
    this.#moveTo(slot, this.#reserve(slot.length));
  }

  /**
   * Whether the oldest entry stays for another round: read since it was kept,
   * and this set() has chances left. If so, the chance is used up.
   */
  #secondChance(slot: Slot<M>): boolean {
    if (!slot.read || this.#chances <= 0) return false;
    this.#chances--;
    slot.read = false;
    return true;
  }

  /** Puts an entry taken from the front at start, the head, as the newest: its bytes copied there (they may overlap). */
  #moveTo(slot: Slot<M>, start: number): void {
    if (slot.start !== start) this.#buffer!.copyWithin(start, slot.start, slot.start + slot.length);
    slot.start = start;
    this.#order.push(slot);
  }

  /** Whether no entry that starts in [start, start + length) was read since it was kept. */
  #noneReadWithin(start: number, length: number): boolean {
    for (let i = this.#front; i < this.#order.length; i++) {
      const slot = this.#order[i]!;
      if (!this.#holds(slot)) continue;
      if (slot.start < start || slot.start >= start + length) return true;
      if (slot.read) return false;
    }
    return true;
  }

  /** The oldest entry held, after passing those that went. */
  #oldest(): Slot<M> | undefined {
    while (this.#front < this.#order.length) {
      const slot = this.#order[this.#front]!;
      if (this.#holds(slot)) return slot;
      this.#gone--;
      this.#pass();
    }
    return undefined;
  }

  #evictWhile(inTheWay: (slot: Slot<M>) => boolean): void {
    for (let slot = this.#oldest(); slot !== undefined && inTheWay(slot); slot = this.#oldest()) this.#evict(slot);
  }

  /** Evicts the oldest entry (slot is #oldest()). */
  #evict(slot: Slot<M>): void {
    this.#slots.delete(slot.key);
    this.#used -= slot.length;
    this.#keyBytes -= keyExtra(slot.key);
    this.#pass();
    this.#evictions++;
    this.#full = true;
  }

  /** Whether the slot is still the one kept under its key: not deleted, evicted or replaced since. */
  #holds(slot: Slot<M>): boolean {
    return this.#slots.get(slot.key) === slot;
  }

  /** Moves the front past the oldest entry, which the order then no longer keeps alive. */
  #pass(): void {
    this.#order[this.#front++] = null;
    if (this.#front > MIN_PASSED && this.#front * 4 > this.#order.length) this.#compact();
  }

  /** Drops from the order what the front has passed and what is no longer held. */
  #compact(): void {
    this.#order = this.#order.slice(this.#front).filter((slot) => this.#holds(slot!));
    this.#front = 0;
    this.#gone = 0;
  }
}
