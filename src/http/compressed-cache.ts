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
  /** Where a body is encoded to be compared with a remembered one (the bodies up to 128 K characters). */
  readonly #scratch = Buffer.allocUnsafeSlow(384 * 1024);

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

  /** The tag this URL's body had last time, if the body is the same text now. */
  knownTag(url: string, body: string): string | undefined {
    if (!this.#tags.has(url)) return undefined;
    // Encoded into a buffer kept for this (0.5 µs for a 20 KB page, where Buffer.from allocates: 6–20 µs).
    if (body.length * 3 > this.#scratch.length) return this.#tags.equals(url, Buffer.from(body)) ? this.#tags.meta(url) : undefined;
    const length = this.#scratch.write(body, 0, 'utf8');
    return this.#tags.equals(url, this.#scratch, length) ? this.#tags.meta(url) : undefined;
  }

  rememberTag(url: string, body: string, tag: string): void {
    this.#tags.set(url, body, tag);
  }
}
