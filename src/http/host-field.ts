/**
 * The Host field as RFC 9112 §3.2 wants it: a server must answer 400 to an
 * HTTP/1.1 request without one, and to any request with more than one Host
 * line or a value that is no host. Node checks none of it here (the app asks
 * it not to: see httpServerOptions); the front door refuses, and the express
 * lane leaves such a request to it.
 */
import type { IncomingMessage } from 'node:http';
import { headerLines } from './header-lines.ts';

/**
 * uri-host [":" port] (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP literal in
 * brackets (IPv6 or IPvFuture), or a reg-name (an IPv4 address is one too),
 * which may be empty. Underscores and the sub-delimiters are allowed, as the
 * grammar allows them.
 */
const HOST = /^(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+)\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

export type HostProblem = 'missing' | 'repeated' | 'invalid';

/** What is wrong with the request's Host field, or null when nothing is. */
export function hostProblem(request: IncomingMessage): HostProblem | null {
  const host = request.headers.host;
  if (host === undefined) return request.httpVersionMajor === 1 && request.httpVersionMinor === 1 ? 'missing' : null;
  // Node keeps the first of repeated Host lines in headers.host: only the raw lines show the others.
  if (headerLines(request.rawHeaders, 'host') > 1) return 'repeated';
  return HOST.test(host) ? null : 'invalid';
}
