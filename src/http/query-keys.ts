/**
 * API keys must never travel in a URL (contract §5.4). These helpers find a
 * key-shaped value in any query parameter, however it was percent-encoded, and
 * keep such URLs, and the dashboard's one-time link tokens, out of the logs.
 */
import { holdsKeyShape as holdsKey, percentDecoded } from '../domain/key-shape.ts';
import { ApiError } from '../errors.ts';

/** Query parameters whose values are secrets of their own (the dashboard's one-time links). */
const SECRET_PARAMS = new Set(['token']);

/** True when any name or value of the query string holds a key-shaped text. */
export function queryHoldsKey(url: string): boolean {
  const q = url.indexOf('?');
  if (q === -1) return false;
  for (const pair of url.slice(q + 1).split('&')) {
    for (const part of pair.split('=')) {
      if (holdsKey(part)) return true;
    }
  }
  return false;
}

export function rejectKeyInQuery(url: string): void {
  if (queryHoldsKey(url)) {
    throw new ApiError(
      'api_key_in_query',
      'An API key was sent in the query string, where it leaks into logs and browser history. Send it in the Authorization: Bearer header instead, and consider this key exposed: revoke it and create a new one.',
    );
  }
}

/**
 * The URL as it may be logged or echoed in an error message: a path segment
 * holding a key is replaced, and a query string holding one is dropped whole.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = holdsKey(path)
    ? path
        .split('/')
        .map((segment) => (holdsKey(segment) ? '[REDACTED]' : segment))
        .join('/')
    : path;
  if (q === -1) return safePath;
  if (queryHoldsKey(url)) return `${safePath}?[REDACTED]`;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && SECRET_PARAMS.has(percentDecoded(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=[REDACTED]` : pair;
    })
    .join('&');
  return `${safePath}?${query}`;
}
