/**
 * Compressed forms of response bodies, kept so that the same body is not
 * compressed twice: least recently used first out, bounded by the bytes it
 * holds. Keyed by the body's entity tag and the coding, so an entry can never
 * be served for another body.
 */
import type { ContentCoding } from './accept-encoding.ts';

/** What an entry costs beyond its bytes (the Map slot, the key, the Buffer object), as an estimate. */
const ENTRY_OVERHEAD = 160;

export class CompressedCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Buffer>();
  #bytes = 0;
  hits = 0;
  misses = 0;

  /** maxBytes 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(tag: string, coding: ContentCoding): Buffer | undefined {
    const key = `${coding}${tag}`;
    const found = this.#entries.get(key);
    if (found === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: re-insert.
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found;
  }

  set(tag: string, coding: ContentCoding, body: Buffer): void {
    const cost = body.length + ENTRY_OVERHEAD;
    if (cost > this.#maxBytes) return;
    const key = `${coding}${tag}`;
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= previous.length + ENTRY_OVERHEAD;
    }
    this.#entries.set(key, body);
    this.#bytes += cost;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= value.length + ENTRY_OVERHEAD;
    }
  }
}
