/**
 * Entity tags of /v1 answers and the If-None-Match precondition (RFC 9110
 * §8.8.3, §13.1.2). A tag is a digest of the exact bytes of the identity body:
 * two different bodies never share one, and the same body always gets the same
 * one, on every instance and across restarts (no clock, no counter, no secret).
 */
import { hash } from 'node:crypto';

/**
 * SHA-256 (hardware-accelerated where the CPU has SHA extensions; cheaper than
 * SHA-1 and MD5 there), the first 128 bits in base64url: 22 characters. Text
 * is digested as its UTF-8 bytes, so a body's text and its bytes get one tag.
 */
export function entityTag(body: Buffer | string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;
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
