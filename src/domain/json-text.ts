/**
 * Records are stored as their response JSON and sent as they are: no parse,
 * no serialisation on the hot path. These types say what such a text holds,
 * so that a route can send only the text its response schema describes.
 *
 * A record travels as text (a string); a page's records, and the page's body,
 * travel as UTF-8 bytes: SQLite hands a page's records over joined in one
 * buffer, and the bytes are digested, kept and sent as they are, never decoded
 * into text and encoded again.
 */
declare const holds: unique symbol;
declare const holdsItems: unique symbol;
declare const holdsBody: unique symbol;

/** JSON text of one value of type T. */
export type JsonText<T> = string & { readonly [holds]: T };
/** Comma-joined JSON texts of values of type T, as UTF-8 bytes: the inside of a JSON array. */
export type JsonItems<T> = Buffer & { readonly [holdsItems]: T };
/** The UTF-8 bytes of one JSON value of type T: a body as it is sent. */
export type JsonBody<T> = Buffer & { readonly [holdsBody]: T };

/** Declares what a text holds: only where it was written from (or stored as) a T. */
export function jsonText<T>(text: string): JsonText<T> {
  return text as JsonText<T>;
}

/**
 * Declares what comma-joined texts hold: only where each was written from (or
 * stored as) a T. Text is encoded; bytes are taken as they are (not copied).
 */
export function jsonItems<T>(items: string | Uint8Array): JsonItems<T> {
  if (typeof items === 'string') return Buffer.from(items, 'utf8') as JsonItems<T>;
  return (Buffer.isBuffer(items) ? items : Buffer.from(items.buffer, items.byteOffset, items.byteLength)) as JsonItems<T>;
}

/** Declares what a body's bytes hold: only where they were written from a T. */
export function jsonBody<T>(bytes: Buffer): JsonBody<T> {
  return bytes as JsonBody<T>;
}

/** Whether the view spans its whole ArrayBuffer: it can be handed to another thread, or let go, without touching other bytes. */
export function ownsItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}
