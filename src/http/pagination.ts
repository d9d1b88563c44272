/** Limits, cursor binding and the page envelope shared by every collection. */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { jsonBody, ownsItsBuffer, type JsonBody } from '../domain/json-text.ts';
import type { Page, RawPage } from '../domain/pages.ts';
import type { CursorCodec, SortKey } from './cursor.ts';

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 200;

export const LIMIT_RULE = 'The limit parameter must be an integer of at least 1 (values above 200 are clamped to 200).';

/**
 * preValidation hook of the collection routes. Schema coercion would read
 * "1e2", "0x10", " 5" or "2.0" as integers; a limit is written in decimal digits.
 */
export async function rejectLooseLimit(request: FastifyRequest): Promise<void> {
  const { limit } = request.query as Record<string, unknown>;
  if (typeof limit === 'string' && !/^[0-9]+$/.test(limit)) throw new ApiError('invalid_parameter', LIMIT_RULE, { param: 'limit' });
}

/** The contract clamps an over-large limit; smaller-than-1 was refused by the schema. */
export function effectiveLimit(limit: number | undefined): number {
  return limit === undefined ? LIMIT_DEFAULT : Math.min(limit, LIMIT_MAX);
}

/**
 * Canonical text of a query's filters, bound into its cursors: a cursor only
 * continues the walk it came from. `limit` is left out on purpose: it may
 * change between pages.
 */
export function filterBinding(filters: Record<string, string | undefined>): string {
  return Object.keys(filters)
    .sort()
    .filter((name) => filters[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(filters[name]!)}`)
    .join('&');
}

export interface Collection<K> {
  name: string;
  toSortKey(key: K): SortKey;
  fromSortKey(key: SortKey): K | null;
}

const HEAD = '{"data":[';
const LAST = '],"pagination":{"has_more":false}}';

/** Where a body is written: a buffer of exactly that many bytes, for one response (see body-buffers.ts). */
export type BodyAllocator = (size: number) => Buffer;

/**
 * The envelope around the records' ready JSON, as the bytes sent: the records' bytes are copied
 * once, never decoded. It consumes the page: its bytes are given back once copied (see release).
 */
export function pageEnvelope<K, T>(
  page: RawPage<K, T>,
  codec: CursorCodec,
  collection: Collection<K>,
  binding: string,
  allocate: BodyAllocator,
): JsonBody<Page<T>> {
  // The envelope's own text is ASCII (a cursor is base64url): one byte a character.
  const tail =
    !page.hasMore || page.last === null
      ? LAST
      : `],"pagination":{"has_more":true,"next_cursor":"${codec.encode(collection.name, binding, collection.toSortKey(page.last))}"}}`;
  const items = page.json;
  const body = allocate(HEAD.length + items.length + tail.length);
  body.write(HEAD, 0, 'latin1');
  items.copy(body, HEAD.length);
  body.write(tail, HEAD.length + items.length, 'latin1');
  release(items);
  return jsonBody(body);
}

/**
 * Gives a page's bytes back at once, when they own their memory (a database's buffer, a copy out
 * of the read cache), instead of at V8's next collection: under 200-change pages those buffers,
 * outside V8's heap, held 40–70 MB between collections and left glibc's heap fragmented. Never a
 * slice of a larger buffer (Node's shared pool for small ones).
 */
function release(bytes: Buffer): void {
  const whole = bytes.buffer;
  if (ownsItsBuffer(bytes) && whole.byteLength >= RELEASED_FROM && whole instanceof ArrayBuffer) whole.transfer(0);
}

/** Smaller buffers may be slices of Node's shared pool (below 4 KiB); these never are. */
const RELEASED_FROM = 4096;

/** The position a cursor points after, or null for the first page; invalid_cursor otherwise. */
export function positionAfter<K>(codec: CursorCodec, cursor: string | undefined, collection: Collection<K>, binding: string): K | null {
  if (cursor === undefined) return null;
  const key = collection.fromSortKey(codec.decode(cursor, collection.name, binding));
  if (key === null) throw codec.invalid('malformed');
  return key;
}
