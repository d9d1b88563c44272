/**
 * The compressed forms of /v1 answers, kept so that a body is compressed once
 * per coding while it stays here: keyed by the body's entity tag and the
 * coding, so an entry can never be served for another body. Within one memory
 * bound (COMPRESSED_CACHE_MB), its bytes in a ByteRing (one buffer outside the
 * V8 heap, first in first out with a second chance for a form read since it
 * was kept, a doorkeeper once full): see
 * src/services/byte-ring.ts.
 */
import { ByteRing } from '../services/byte-ring.ts';
import type { ContentCoding } from './accept-encoding.ts';

export class CompressedCache {
  readonly #compressed: ByteRing;

  /** maxBytes 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#compressed = new ByteRing({ maxBytes, doorkeeper: true });
  }

  /** A copy of the compressed form (the socket may still be sending it when the ring reuses its place). */
  get(tag: string, coding: ContentCoding): Buffer | undefined {
    return this.#compressed.copy(`${coding}${tag}`)?.bytes;
  }

  set(tag: string, coding: ContentCoding, body: Buffer): void {
    this.#compressed.set(`${coding}${tag}`, body, undefined);
  }
}
