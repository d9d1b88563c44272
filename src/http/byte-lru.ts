/**
 * A map bounded by the bytes its values hold: least recently used out first.
 * The compressed forms of answers and the tags of recent bodies are kept in
 * one each (see representations.ts).
 */

/** What an entry costs beyond its value's bytes (the Map slot, the key, the object), as an estimate. */
export const ENTRY_OVERHEAD = 160;

export class ByteLru<V> {
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  readonly #entries = new Map<string, V>();
  #bytes = 0;

  /** maxBytes 0 keeps nothing. */
  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const found = this.#entries.get(key);
    if (found === undefined) return undefined;
    // Most recently used last: re-insert.
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found;
  }

  set(key: string, value: V): void {
    const cost = this.#sizeOf(value) + ENTRY_OVERHEAD;
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= this.#sizeOf(previous) + ENTRY_OVERHEAD;
    }
    if (cost > this.#maxBytes) return;
    this.#entries.set(key, value);
    this.#bytes += cost;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= this.#sizeOf(old) + ENTRY_OVERHEAD;
    }
  }
}
