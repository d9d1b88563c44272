/**
 * An exact in-process cache of read results, bounded in bytes. Exact: every
 * entry was read under a version (the store's freshness version on SQLite,
 * the access epoch seen through Redis when scaled out), and the whole cache is
 * dropped the moment that version moves, so a cached answer is never older
 * than what the store would answer now. A read that began under an older
 * version is not kept.
 *
 * The texts are kept as UTF-8 in a ByteRing (one buffer outside the V8 heap,
 * first in first out, with a second chance for what was read since it was
 * kept) and, once it is full, a text enters only on its second request within
 * a recent window (the doorkeeper): see byte-ring.ts for the memory this
 * saves.
 */
import { ByteRing } from './byte-ring.ts';

/**
 * The share of the bound for the ring's index, which caps its entries. A
 * record is ~450 B: with an eighth (and 160 B counted an entry), 24 MiB held
 * 19 660 records in 8.8 MB of a 21 MB buffer, and a Zipf stream of ids over
 * 1 000 000 codes hit 66 % of the time; with a quarter, 27 118 records at
 * ENTRY_OVERHEAD (232 B) an entry, and 72 % with the ring's second chance
 * (`node bench/cache-sim.ts`; bench/HISTORY.md, "2026-12-07" and
 * "2026-12-07, later").
 */
export const READ_CACHE_INDEX_SHARE = 1 / 4;

export interface ReadCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class ReadCache<M = undefined> {
  readonly maxBytes: number;
  private readonly versionOf: () => number;
  private readonly ring: ByteRing<M>;
  private version = Number.NaN;
  private hits = 0;
  private misses = 0;

  /** version: NaN while nothing can be vouched for (then nothing is cached). */
  constructor(maxBytes: number, version: () => number) {
    this.maxBytes = maxBytes;
    this.versionOf = version;
    this.ring = new ByteRing<M>({ maxBytes, doorkeeper: true, indexShare: READ_CACHE_INDEX_SHARE });
  }

  /**
   * The version a read is made under, taken before the read (pass it to set);
   * drops every entry when it moved since the last call.
   */
  open(): number {
    const version = this.versionOf();
    if (version !== this.version) {
      // NaN never equals itself: a source that cannot vouch keeps the cache empty.
      if (this.ring.size > 0) this.clear();
      this.version = version;
    }
    return version;
  }

  /** The text kept under key (a string of its own) and what was kept beside it; count false as for view(). */
  get(key: string, count = true): { text: string; meta: M } | undefined {
    const found = this.ring.text(key);
    return count ? this.counted(found) : found;
  }

  /** The bytes kept under key (a copy: the ring may reuse their place while a socket still sends them) and what was kept beside them. */
  getBytes(key: string): { bytes: Buffer; meta: M } | undefined {
    return this.counted(this.ring.copy(key));
  }

  /**
   * The bytes kept under key in place (see ByteRing.view: copy them before anything else is kept) and what was kept
   * beside them. count false: a look that counts neither a hit nor a miss (the caller counts what it answers, hit()).
   */
  view(key: string, count = true): { bytes: Buffer; meta: M } | undefined {
    const found = this.ring.view(key);
    return count ? this.counted(found) : found;
  }

  /** A look's result, counted as a hit or a miss. */
  private counted<T>(found: T | undefined): T | undefined {
    if (found === undefined) this.misses++;
    else this.hits++;
    return found;
  }

  /** Counts a hit that a look with view(key, false) or get(key, false) found and answered. */
  hit(): void {
    this.hits++;
  }

  /** Counts a miss that such a look answered (from a read of its own). */
  miss(): void {
    this.misses++;
  }

  /** Keeps text or bytes when they were read under the version still current (and fit, and are let in: see ByteRing.set). */
  set(key: string, value: string | Buffer, meta: M, version: number): void {
    if (version !== this.version) return;
    this.ring.set(key, value, meta);
  }

  clear(): void {
    this.ring.clear();
  }

  stats(): ReadCacheStats {
    const ring = this.ring;
    return { entries: ring.size, bytes: ring.bytes, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses, evictions: ring.evictions };
  }
}
