/**
 * What the representation step keeps so that it does not pay twice for the
 * same body, within one memory bound (COMPRESSED_CACHE_MB), half each:
 * - compressed forms, keyed by the body's entity tag and the coding, so an
 *   entry can never be served for another body;
 * - the tag of the last body each URL answered with, reused only when the new
 *   body is the very same text (its bytes compared in full, at memory speed, where the
 *   digest costs ~0.7 µs a kilobyte), so a reused tag is exactly the tag the
 *   digest would give.
 * Both keep their bytes in a ByteRing (one buffer outside the V8 heap, first
 * in first out, a doorkeeper once full): see src/services/byte-ring.ts.
 */
import { ByteRing } from '../services/byte-ring.ts';
import type { ContentCoding } from './accept-encoding.ts';

export class CompressedCache {
  readonly #compressed: ByteRing;
  /** URL → the body's bytes, with its tag beside. */
  readonly #tags: ByteRing<string>;

  /** maxBytes 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#compressed = new ByteRing({ maxBytes: Math.floor(maxBytes / 2), doorkeeper: true });
    this.#tags = new ByteRing<string>({ maxBytes: Math.floor(maxBytes / 2), doorkeeper: true });
  }

  get bytes(): number {
    return this.#compressed.bytes + this.#tags.bytes;
  }

  /** Compressed forms held. */
  get size(): number {
    return this.#compressed.size;
  }

  /** A copy of the compressed form (the socket may still be sending it when the ring reuses its place). */
  get(tag: string, coding: ContentCoding): Buffer | undefined {
    return this.#compressed.copy(`${coding}${tag}`)?.bytes;
  }

  set(tag: string, coding: ContentCoding, body: Buffer): void {
    this.#compressed.set(`${coding}${tag}`, body, undefined);
  }

  /** The tag this URL's body had last time, if the body is the same bytes now. */
  knownTag(url: string, body: Buffer): string | undefined {
    return this.#tags.equals(url, body) ? this.#tags.meta(url) : undefined;
  }

  rememberTag(url: string, body: Buffer, tag: string): void {
    this.#tags.set(url, body, tag);
  }
}
