/**
 * An exact in-process cache of read results, bounded in bytes, least recently
 * used out first. Exact: every entry was read under a version (the store's
 * freshness version on SQLite, the access epoch seen through Redis when scaled
 * out), and the whole cache is dropped the moment that version moves, so a
 * cached answer is never older than what the store would answer now. A read
 * that began under an older version is not kept.
 */

/** A Map entry, the key string and the value's object, roughly (bytes). */
const ENTRY_OVERHEAD = 160;
const TWO_BYTE = /[\u0100-\uffff]/;

/** Bytes a string takes in V8: one per character, two when any character needs more than Latin-1. */
export function stringBytes(text: string): number {
  return TWO_BYTE.test(text) ? text.length * 2 : text.length;
}

export interface ReadCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class ReadCache<V> {
  readonly maxBytes: number;
  private readonly versionOf: () => number;
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private version = Number.NaN;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /** version: NaN while nothing can be vouched for (then nothing is cached). */
  constructor(maxBytes: number, version: () => number) {
    this.maxBytes = maxBytes;
    this.versionOf = version;
  }

  /**
   * The version a read is made under, taken before the read (pass it to set);
   * drops every entry when it moved since the last call.
   */
  open(): number {
    const version = this.versionOf();
    if (version !== this.version) {
      // NaN never equals itself: a source that cannot vouch keeps the cache empty.
      if (this.entries.size > 0) this.clear();
      this.version = version;
    }
    return version;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps value when it was read under the version still current and fits in an eighth of the bound. */
  set(key: string, value: V, valueBytes: number, version: number): void {
    const bytes = valueBytes + key.length + ENTRY_OVERHEAD;
    if (version !== this.version || bytes > this.maxBytes / 8) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.bytes -= previous.bytes;
      this.entries.delete(key);
    }
    while (this.bytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.bytes -= this.entries.get(oldest.value)!.bytes;
      this.entries.delete(oldest.value);
      this.evictions++;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): ReadCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }
}
