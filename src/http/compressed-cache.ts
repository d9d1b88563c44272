/**
 * What the representation step keeps so that it does not pay twice for the
 * same body, within one memory bound (COMPRESSED_CACHE_MB), half each:
 * - compressed forms, keyed by the body's entity tag and the coding, so an
 *   entry can never be served for another body;
 * - the tag of the last body each URL answered with, reused only when the new
 *   body is the very same text (compared in full, at memory speed, where the
 *   digest costs ~0.7 µs a kilobyte), so a reused tag is exactly the tag the
 *   digest would give.
 */
import type { ContentCoding } from './accept-encoding.ts';
import { ByteLru } from './byte-lru.ts';

export interface TaggedBody {
  body: string;
  tag: string;
}

export class CompressedCache {
  readonly #compressed: ByteLru<Buffer>;
  readonly #tags: ByteLru<TaggedBody>;

  /** maxBytes 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#compressed = new ByteLru(Math.floor(maxBytes / 2), (b) => b.length);
    // A string may be held by the service's own cache too; counted here in full, as if it were not.
    this.#tags = new ByteLru(Math.floor(maxBytes / 2), (t) => t.body.length);
  }

  get bytes(): number {
    return this.#compressed.bytes + this.#tags.bytes;
  }

  /** Compressed forms held. */
  get size(): number {
    return this.#compressed.size;
  }

  get(tag: string, coding: ContentCoding): Buffer | undefined {
    return this.#compressed.get(`${coding}${tag}`);
  }

  set(tag: string, coding: ContentCoding, body: Buffer): void {
    this.#compressed.set(`${coding}${tag}`, body);
  }

  /** The tag this URL's body had last time, if the body is the same text now. */
  knownTag(url: string, body: string): string | undefined {
    const known = this.#tags.get(url);
    return known !== undefined && known.body === body ? known.tag : undefined;
  }

  rememberTag(url: string, body: string, tag: string): void {
    this.#tags.set(url, { body, tag });
  }
}
