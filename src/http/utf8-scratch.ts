/**
 * One buffer where the representation step writes a body's text as UTF-8, to
 * digest it and compress it, both synchronously, instead of a new Buffer each
 * time. Buffer.from of a 20 KB page allocates outside V8's heap (in the C
 * heap), freed only once V8 has collected the Buffer: under compressed page
 * traffic it was most of a request's garbage (bench/README.md, "The tag").
 *
 * A view is valid until the next call, so it is never handed to a socket or
 * kept: what outlives the request is copied (the compressed form).
 */

/** Text up to this many UTF-16 code units always fits (UTF-8 takes at most 3 bytes for each). */
const MAX_TEXT = 128 * 1024;
const scratch = Buffer.allocUnsafeSlow(MAX_TEXT * 3);

/** The UTF-8 bytes of text: a view of the shared buffer, or a Buffer of their own for longer text. */
export function utf8View(text: string): Buffer {
  if (text.length > MAX_TEXT) return Buffer.from(text);
  return scratch.subarray(0, scratch.write(text, 0, 'utf8'));
}
