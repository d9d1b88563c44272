/**
 * Records are stored as their response JSON and sent as they are: no parse,
 * no serialisation on the hot path. These types say what such a text holds,
 * so that a route can send only the text its response schema describes.
 */
declare const holds: unique symbol;
declare const holdsItems: unique symbol;

/** JSON text of one value of type T. */
export type JsonText<T> = string & { readonly [holds]: T };
/** Comma-joined JSON texts of values of type T: the inside of a JSON array. */
export type JsonItems<T> = string & { readonly [holdsItems]: T };

/** Declares what a text holds: only where it was written from (or stored as) a T. */
export function jsonText<T>(text: string): JsonText<T> {
  return text as JsonText<T>;
}

/** Declares what comma-joined texts hold: only where each was written from (or stored as) a T. */
export function jsonItems<T>(text: string): JsonItems<T> {
  return text as JsonItems<T>;
}
