/**
 * API keys must never travel in a URL (contract §5.4). These helpers find a
 * key-shaped value in any query parameter, however it was percent-encoded, and
 * keep such URLs out of the logs.
 */
import { ApiError } from '../errors.ts';

const KEY_SHAPE = /svc_(?:live|test)_[A-Za-z0-9]{32}/;

/** Decodes one URL component; an undecodable one is checked as it stands. */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return component;
  }
}

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

const holdsKey = (part: string) => KEY_SHAPE.test(part) || KEY_SHAPE.test(decoded(part));

/**
 * The URL as it may be logged or echoed in an error message: a path segment
 * holding a key is replaced, and a query string holding one is dropped whole.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = holdsKey(path) ? path.split('/').map((segment) => (holdsKey(segment) ? '[REDACTED]' : segment)).join('/') : path;
  if (q === -1) return safePath;
  return queryHoldsKey(url) ? `${safePath}?[REDACTED]` : `${safePath}${url.slice(q)}`;
}
