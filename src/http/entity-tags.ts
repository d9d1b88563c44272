/**
 * Entity tags of /v1 answers and the If-None-Match precondition (RFC 9110
 * §8.8.3, §13.1.2). A tag is a 128-bit digest of the exact bytes of the
 * identity body: the same body always gets the same tag, on every instance and
 * across restarts (no clock, no counter, no secret), and two different bodies
 * share one only by a 2^-128 chance.
 */
import { hash } from 'node:crypto';
import { createXXHash128 } from 'hash-wasm';

/**
 * Bodies of at least this many bytes are digested with XXH3-128, smaller ones
 * with SHA-256. Measured per body (bench/HISTORY.md, "2026-12-07"): a 450-byte
 * record costs ~0.7 µs either way, and SHA-256 takes a record's text as it is
 * where the WebAssembly digest needs its bytes first; a 20 KB page 14–16 µs
 * with SHA-256 against ~4 µs, a 98 KB change page ~65 µs against ~13.
 */
export const XXH3_FROM_BYTES = 1024;

/**
 * XXH3-128 is not a cryptographic digest: someone who chose both bodies could
 * make them collide. Nobody served a body chooses its bytes (the records are the
 * operator's, the cursors are signed), and a tag only ever stands for the body
 * of one URL, so the question is only whether a body and its next version
 * collide by chance. The hasher is compiled once, before the first answer.
 */
const xxh3 = await createXXHash128();

/** A 128-bit digest in base64url: 22 characters. Text is digested as its UTF-8 bytes, so a body's text and its bytes get one tag. */
export function entityTag(body: Buffer | string): string {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size < XXH3_FROM_BYTES) return `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;
  xxh3.init();
  xxh3.update(body);
  const digest = xxh3.digest('binary');
  return `"${Buffer.from(digest.buffer, digest.byteOffset, digest.length).toString('base64url')}"`;
}

/** The weak form of a strong tag: what a compressed representation of the same body carries. */
export function weakened(tag: string): string {
  return `W/${tag}`;
}

/** The opaque part of a tag, for weak comparison: W/"x" and "x" compare equal. */
const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Whether If-None-Match is false for the current representation, i.e. the
 * answer is 304: "*" (the resource exists), or a listed tag equal to it under
 * weak comparison, as RFC 9110 §13.1.2 requires for GET and HEAD.
 * Unparseable members are skipped; several header lines are one list.
 */
export function noneMatchFails(field: string | string[] | undefined, tag: string): boolean {
  if (field === undefined) return false;
  const text = Array.isArray(field) ? field.join(',') : field;
  if (text.trim() === '*') return true;
  const wanted = opaque(tag);
  // An entity-tag is W/? followed by a quoted run of characters other than '"'; commas may occur inside.
  for (const match of text.matchAll(/(?:W\/)?"[^"]*"/g)) if (opaque(match[0]) === wanted) return true;
  return false;
}
