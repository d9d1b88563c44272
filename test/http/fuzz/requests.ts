/**
 * Generated requests over every route of the app: methods (unusual ones too),
 * paths with escapes valid and broken, non-ASCII, %00 and dot segments, query
 * strings with known parameters at wild values, unknown, repeated and
 * key-shaped ones, both authentication headers with valid, revoked, unknown
 * and malformed keys, odd content types and encodings, dashboard cookies and
 * CSRF tokens, and bodies from none to over a megabyte.
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { FuzzTarget, Route } from './target.ts';

export interface FuzzRequest {
  method: string;
  /** The request target as sent: path and query, escapes as generated. */
  url: string;
  /** In order; a name may repeat. */
  headers: [string, string][];
  body: Buffer | null;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOGIN_CSRF = 'fuzz-login-csrf-token-0123456789';

const alnum = (length: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: length, maxLength: length });
const keyShaped = fc.tuple(fc.constantFrom('svc_live_', 'svc_test_'), alnum(32)).map(([prefix, rest]) => prefix + rest);

/** Text that breaks things: empty, dot segments, NUL, broken escapes, non-ASCII, lone surrogates, very long. */
const wildText = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    '',
    '..',
    '.',
    '%00',
    '\u0000',
    '%',
    '%Z',
    '%ZZ',
    '%E9',
    '%C3%A9',
    '%C3',
    '%2F',
    '%2e%2e',
    '%u00e9',
    'é',
    '😀',
    '\ud800',
    ' ',
    '+',
    '#',
    ';',
    '*',
    '?',
    '&',
    '=',
    '\\',
    '..%2F..',
  ),
  fc.constantFrom('x'.repeat(3000), '%41'.repeat(2000), 'é'.repeat(1000)),
);

const percentAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

function encoded(text: string, how: number): string {
  switch (how) {
    case 0:
      return text;
    case 1:
      try {
        return encodeURIComponent(text);
      } catch {
        return text; // a lone surrogate: sent as it is
      }
    case 2:
      return percentAll(text);
    default:
      return `${text}%`;
  }
}

const anyEncoding = (text: fc.Arbitrary<string>) => fc.tuple(text, fc.nat(3)).map(([t, how]) => encoded(t, how));

function pathArbitrary(t: FuzzTarget, route: Route): fc.Arbitrary<string> {
  const codeId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...t.codeIds).map((id) => encodeURIComponent(id)) },
    { weight: 1, arbitrary: fc.constantFrom(...t.codeIds) },
    { weight: 3, arbitrary: anyEncoding(wildText) },
  );
  const keyId = fc.oneof(
    fc.constantFrom(...t.spareKeyIds),
    alnum(16).map((s) => `key_${s}`),
    anyEncoding(wildText),
  );
  const tail = fc.array(anyEncoding(wildText), { maxLength: 4 }).map((segments) => segments.join('/'));
  const filled = fc.tuple(codeId, keyId, tail).map(([code, key, rest]) => route.path.replace(':code_id', code).replace(':id', key).replace('*', rest));
  const mutation = fc.constantFrom(
    (p: string) => p,
    (p: string) => `${p}/`,
    (p: string) => p.replace('/', '//'),
    (p: string) => `${p}/..`,
    (p: string) => `${p}/../v1/codes`,
    (p: string) => p.replaceAll('/', '%2F'),
    (p: string) => p.toUpperCase(),
    (p: string) => `${p}/%00`,
    (p: string) => `${p};x=1`,
  );
  const unknown = fc
    .array(fc.oneof(fc.constantFrom('v1', 'v2', 'dashboard', 'docs', 'codes', 'changes', 'keys', 'assets'), anyEncoding(wildText)), { maxLength: 5 })
    .map((s) => `/${s.join('/')}`);
  return fc.oneof(
    { weight: 8, arbitrary: filled },
    { weight: 2, arbitrary: fc.tuple(filled, mutation).map(([p, mutate]) => mutate(p)) },
    { weight: 2, arbitrary: unknown },
  );
}

function queryArbitrary(t: FuzzTarget, route: Route): fc.Arbitrary<string | null> {
  const tamperedCursor = fc.tuple(fc.constantFrom(...t.cursors), fc.nat(200)).map(([c, i]) => `${c.slice(0, i % c.length)}A${c.slice((i % c.length) + 1)}`);
  /** Known parameters with values that are mostly right, so that one wild value among them is what gets refused. */
  const known: Record<string, fc.Arbitrary<string>> = {
    limit: fc.integer({ min: 1, max: 300 }).map(String),
    cursor: fc.oneof(fc.constantFrom(...t.cursors), tamperedCursor),
    system: fc.constantFrom('demo', 'other'),
    status: fc.constantFrom('active', 'deprecated', 'retired'),
    type: fc.constantFrom('added', 'revised', 'retired', 'reactivated'),
    effective_from: fc.constantFrom('2024-01-01', '2023-12-31', '2024-02-01'),
    effective_to: fc.constantFrom('2024-01-31', '2025-01-01'),
    code_id: fc.constantFrom(...t.codeIds),
    as_of: fc.constantFrom('2024-01-15', '2020-01-01'),
    release: fc.constantFrom('r1', 'r2'),
    q: fc.constantFrom('A', 'Code'),
    token: alnum(24),
    done: fc.constant('password'),
    next: fc.constant('/dashboard'),
  };
  const wildValue = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('', '0', '-1', '1.5', '201', '1e3', '0x10', '99999999999999999999', 'NaN', 'abc', 'true', 'null') },
    { weight: 4, arbitrary: fc.constantFrom('2024-02-30', '2024-13-01', '0000-00-00', '2024-1-1', 'Demo', 'demo:A', 'password') },
    { weight: 1, arbitrary: fc.oneof(keyShaped, fc.constantFrom(t.keys.valid, t.keys.revoked)) },
    { weight: 3, arbitrary: wildText },
  );
  const unknownName = fc.constantFrom('offset', 'page', 'x', 'Limit', 'limit[]', 'a[b]', '__proto__', 'constructor', 'hasOwnProperty', 'api_key', '');
  const own = (t.queryParams.get(route.path) ?? []).filter((name) => name in known);
  const knownName =
    own.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fc.constantFrom(...Object.keys(known)) })
      : fc.constantFrom(...Object.keys(known));
  const knownPair = knownName.chain((name) =>
    fc.tuple(fc.constant(name), fc.oneof({ weight: 5, arbitrary: known[name]! }, { weight: 1, arbitrary: wildValue })),
  );
  const pair = fc.oneof(
    { weight: 12, arbitrary: fc.tuple(knownPair, fc.nat(3)).map(([[n, v], how]) => `${n}=${encoded(v, how === 3 ? 1 : how)}`) },
    { weight: 2, arbitrary: fc.tuple(unknownName, anyEncoding(wildValue)).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: anyEncoding(fc.oneof(keyShaped, wildText)).map((n) => `${n}=1`) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...Object.keys(known)), unknownName) },
    { weight: 1, arbitrary: fc.constantFrom('', '=', '==', '&', '=x', 'limit=1&limit=2', 'limit=1%') },
  );
  return fc.option(
    fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => pairs.join('&')),
    { freq: 3 },
  );
}

function headersArbitrary(t: FuzzTarget): fc.Arbitrary<[string, string][]> {
  const { valid, test, revoked, unknown } = t.keys;
  const key = fc.oneof(
    { weight: 12, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.constantFrom(test, revoked, unknown) },
    { weight: 1, arbitrary: keyShaped },
    { weight: 1, arbitrary: fc.constantFrom(valid.slice(0, -1), `${valid}x`, valid.toLowerCase(), ` ${valid}`, `${valid},${valid}`, '', 'x'.repeat(8000)) },
  );
  const auth = fc.oneof(
    { weight: 1, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 10, arbitrary: key.map((k): [string, string][] => [['authorization', `Bearer ${k}`]]) },
    { weight: 3, arbitrary: key.map((k): [string, string][] => [['x-api-key', k]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(key, key).map(([a, b]): [string, string][] => [
        ['authorization', `Bearer ${a}`],
        ['x-api-key', b],
      ]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(key, key).map(([a, b]): [string, string][] => [
        ['authorization', `Bearer ${a}`],
        ['authorization', `Bearer ${b}`],
      ]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('bearer', 'BEARER', 'Basic', 'Token', 'Bearer  ', '', 'Bearer\t'), key)
        .map(([scheme, k]): [string, string][] => [['authorization', `${scheme} ${k}`]]),
    },
  );
  const printable = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', ' ', 'é', 'x'.repeat(8000), '*/*', 'gzip', 'close', 'keep-alive', '100-continue', 'bytes=0-10'),
  );
  const session = fc.constantFrom(...t.sessions);
  const cookie = fc.oneof(
    session.map((s) => `cb_session=${s.cookie}`),
    fc.constant(`cb_login_csrf=${LOGIN_CSRF}`),
    session.map((s) => `cb_session=${s.cookie}; cb_login_csrf=${LOGIN_CSRF}`),
    printable.map((v) => `cb_session=${v}`),
    printable,
  );
  const other = fc.oneof(
    fc.tuple(
      fc.constant('content-type'),
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json;;;',
        '',
        '*/*',
        'application/octet-stream',
        'text/html; charset=utf-7',
      ),
    ),
    fc.tuple(fc.constant('accept-encoding'), fc.constantFrom('gzip', 'br', 'deflate', 'zstd', '*', 'identity;q=0', 'gzip;q=2', ', ,', '')),
    fc.tuple(
      fc.constantFrom(
        'accept',
        'accept-language',
        'user-agent',
        'origin',
        'referer',
        'if-none-match',
        'if-modified-since',
        'range',
        'x-forwarded-for',
        'x-forwarded-proto',
        'forwarded',
        'x-http-method-override',
        'request-id',
        'x-request-id',
        'content-encoding',
        'upgrade',
        'accept-version',
        'x-custom',
      ),
      printable,
    ),
    fc.tuple(fc.constant('cookie'), cookie),
  );
  return fc.tuple(auth, fc.array(other, { maxLength: 5 })).map(([a, rest]) => [...a, ...rest]);
}

interface Body {
  contentType: string | null;
  bytes: Buffer | null;
}

function bodyArbitrary(t: FuzzTarget): fc.Arbitrary<Body> {
  const field = fc.tuple(
    fc.constantFrom('_csrf', 'email', 'password', 'name', 'mode', 'nonce', 'current', 'next', 'confirm', 'token', 'x', '_csrf'),
    fc.oneof(
      fc.constantFrom(LOGIN_CSRF, t.email, 'live', 'test', 'twelve chars or more', ''),
      fc.constantFrom(...t.sessions).map((s) => s.csrf),
      wildText,
    ),
  );
  const form = fc.array(field, { maxLength: 8 }).map((fields): Body => ({
    contentType: 'application/x-www-form-urlencoded',
    bytes: Buffer.from(fields.map(([n, v]) => `${n}=${encoded(v, 1)}`).join('&')),
  }));
  const json = fc.json({ maxDepth: 3 }).map((text): Body => ({ contentType: 'application/json', bytes: Buffer.from(text) }));
  const garbage = fc.uint8Array({ maxLength: 2000 }).map((bytes): Body => ({ contentType: null, bytes: Buffer.from(bytes) }));
  const large = fc.constantFrom(70 * 1024, 1024 * 1024 + 1).map((size): Body => ({ contentType: 'application/json', bytes: Buffer.alloc(size, 'a') }));
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant<Body>({ contentType: null, bytes: null }) },
    { weight: 4, arbitrary: form },
    { weight: 2, arbitrary: json },
    { weight: 2, arbitrary: garbage },
    { weight: 1, arbitrary: fc.constant<Body>({ contentType: 'application/json', bytes: Buffer.alloc(0) }) },
    { weight: 1, arbitrary: large },
  );
}

/** The methods a route serves (a /v1 path lists every method, all but GET and HEAD to answer 405). */
function served(route: Route): string[] {
  const usual = route.methods.filter((m) => m === 'GET' || m === 'HEAD' || m === 'POST');
  return usual.length > 0 ? usual : route.methods;
}

export function requestArbitrary(t: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const common = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
  // The API is what clients hit most: its routes are drawn more often.
  const weighted = t.routes.flatMap((route) => (route.path.startsWith('/v1/') ? [route, route, route, route] : [route]));
  return fc.constantFrom(...weighted).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...served(route)) },
          { weight: 2, arbitrary: fc.constantFrom(...common) },
          { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
        ),
        path: pathArbitrary(t, route),
        query: queryArbitrary(t, route),
        headers: headersArbitrary(t),
        body: bodyArbitrary(t),
        // An explicit content type, replaced or dropped now and then.
        contentType: fc.option(fc.constantFrom('text/plain', 'application/json', 'application/x-www-form-urlencoded', 'application/xml'), { freq: 4 }),
      })
      .map(({ method, path, query, headers, body, contentType }): FuzzRequest => {
        const all: [string, string][] = [...headers];
        const type = contentType ?? body.contentType;
        if (body.bytes && type !== null && !all.some(([n]) => n === 'content-type')) all.push(['content-type', type]);
        return { method, url: query === null ? path : `${path}?${query}`, headers: all, body: body.bytes };
      }),
  );
}

/**
 * Whether inject() can carry the URL: light-my-request parses it as a WHATWG
 * URL relative to http://localhost, and a target such as "/\\x" would name
 * another host. The socket fuzz sends those as they are.
 */
export function injectable(url: string): boolean {
  try {
    return new URL(url, 'http://localhost').origin === 'http://localhost';
  } catch {
    return false;
  }
}

/** The request as inject() options (repeated headers as arrays; light-my-request normalises the URL). */
export function injectOptions(r: FuzzRequest): InjectOptions {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of r.headers) {
    const had = headers[name];
    headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return { method: r.method, url: r.url, headers, ...(r.body ? { payload: r.body } : {}) };
}

/** A short description of the request for failure messages (bodies and long values cut). */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}…(${s.length})` : s);
  return JSON.stringify({
    method: r.method,
    url: cut(r.url),
    headers: r.headers.map(([n, v]) => `${n}: ${cut(v)}`),
    body: r.body === null ? null : cut(r.body.toString('latin1')),
  });
}
