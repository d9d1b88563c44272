/**
 * Generated requests written as bytes for a raw socket, some of them broken
 * on purpose so that Node's HTTP parser sees them: odd method tokens and
 * versions, no Host, absolute-form targets, malformed header lines, NUL and
 * control bytes, bare LF, conflicting or short Content-Length, chunked bodies
 * good and bad, Expect: 100-continue, huge and numerous headers, pipelining.
 */
import fc from 'fast-check';
import { requestArbitrary, type FuzzRequest } from './requests.ts';
import type { FuzzTarget } from './target.ts';

interface Draft {
  method: string;
  target: string;
  version: string;
  headers: string[];
  body: Buffer;
  eol: string;
  /** Framing of the body: Content-Length (default), chunked, or as the mutation left it. */
  framing: 'length' | 'chunked' | 'none';
}

export interface Mutation {
  name: string;
  /** The parser may refuse it: its answer is the parser's JSON 400, whatever the path. */
  malformed: boolean;
  /** The request is cut short, so no answer is owed. */
  incomplete?: boolean;
  apply(d: Draft): void;
}

const mutations: Mutation[] = [
  { name: 'none', malformed: false, apply: () => {} },
  { name: 'no Host', malformed: false, apply: (d) => void (d.headers = d.headers.filter((h) => !/^host:/i.test(h))) },
  { name: 'HTTP/1.0', malformed: false, apply: (d) => void (d.version = 'HTTP/1.0') },
  { name: 'chunked body', malformed: false, apply: (d) => void (d.framing = 'chunked') },
  { name: 'Expect: 100-continue', malformed: false, apply: (d) => void d.headers.push('Expect: 100-continue') },
  { name: 'many headers', malformed: false, apply: (d) => d.headers.push(...Array.from({ length: 90 }, (_, i) => `X-Many-${i}: ${i}`)) },
  {
    name: 'upgrade',
    malformed: false,
    apply: (d) => d.headers.push('Upgrade: websocket', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13'),
  },
  { name: 'absolute-form target', malformed: true, apply: (d) => void (d.target = `http://fuzz${d.target}`) },
  { name: 'bad version', malformed: true, apply: (d) => void (d.version = 'HTTP/1.2') },
  { name: 'HTTP/2.0', malformed: true, apply: (d) => void (d.version = 'HTTP/2.0') },
  { name: 'lower-case version', malformed: true, apply: (d) => void (d.version = 'http/1.1') },
  { name: 'odd method token', malformed: true, apply: (d) => void (d.method = ['FOO', 'get', 'G€T', 'PRI', 'DESCRIBE', 'GET\tX', ''][d.body.length % 7]!) },
  { name: 'space before colon', malformed: true, apply: (d) => void d.headers.push('X-Space : 1') },
  { name: 'header without colon', malformed: true, apply: (d) => void d.headers.push('Garbage') },
  { name: 'obs-fold', malformed: true, apply: (d) => void d.headers.push('X-Fold: a', ' b') },
  { name: 'NUL in a header', malformed: true, apply: (d) => void d.headers.push('X-Nul: a\u0000b') },
  { name: 'control byte in the target', malformed: true, apply: (d) => void (d.target = `${d.target}\u0001`) },
  { name: 'space in the target', malformed: true, apply: (d) => void (d.target = `${d.target} x`) },
  { name: 'bare LF', malformed: true, apply: (d) => void (d.eol = '\n') },
  { name: 'two Content-Lengths', malformed: true, apply: (d) => void d.headers.push(`Content-Length: ${d.body.length + 1}`) },
  { name: 'Content-Length and chunked', malformed: true, apply: (d) => void ((d.framing = 'chunked'), d.headers.push(`Content-Length: ${d.body.length}`)) },
  {
    name: 'bad chunk size',
    malformed: true,
    apply: (d) => void ((d.framing = 'none'), d.headers.push('Transfer-Encoding: chunked'), (d.body = Buffer.from('zz\r\nabc\r\n0\r\n\r\n'))),
  },
  { name: 'huge header', malformed: true, apply: (d) => void d.headers.push(`X-Huge: ${'h'.repeat(20_000)}`) },
  { name: 'negative Content-Length', malformed: true, apply: (d) => void ((d.framing = 'none'), d.headers.push('Content-Length: -1')) },
  {
    name: 'short Content-Length (the rest is pipelined)',
    malformed: true,
    apply: (d) => void ((d.framing = 'none'), d.headers.push(`Content-Length: ${Math.floor(d.body.length / 2)}`)),
  },
  {
    name: 'long Content-Length',
    malformed: true,
    incomplete: true,
    apply: (d) => void ((d.framing = 'none'), d.headers.push(`Content-Length: ${d.body.length + 10}`)),
  },
];

export interface RawRequest {
  request: FuzzRequest;
  mutation: Mutation;
  /** Node's parser may refuse it (a mutation, or a target with bytes a request line cannot hold). */
  malformed: boolean;
  bytes: Buffer;
  /** Whether the first answer has no body (a HEAD request). */
  head: boolean;
}

function encode(d: Draft): Buffer {
  const headers = [...d.headers];
  let body = d.body;
  if (d.framing === 'length' && body.length > 0) headers.push(`Content-Length: ${body.length}`);
  if (d.framing === 'chunked') {
    headers.push('Transfer-Encoding: chunked');
    const half = Math.ceil(body.length / 2);
    const chunks = [body.subarray(0, half), body.subarray(half)].filter((c) => c.length > 0);
    body = Buffer.concat([...chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
  }
  const head = [`${d.method} ${d.target} ${d.version}`, ...headers].join(d.eol) + d.eol + d.eol;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

export function rawRequestArbitrary(t: FuzzTarget): fc.Arbitrary<RawRequest> {
  const mutation = fc.oneof({ weight: 3, arbitrary: fc.constant(mutations[0]!) }, { weight: 2, arbitrary: fc.constantFrom(...mutations.slice(1)) });
  return fc.tuple(requestArbitrary(t), mutation).map(([request, m]) => {
    const draft: Draft = {
      method: request.method,
      target: request.url,
      version: 'HTTP/1.1',
      // Host first and Connection: close last, so that each request ends its connection.
      headers: ['Host: fuzz', ...request.headers.map(([name, value]) => `${name}: ${value}`), 'Connection: close'],
      body: request.body ?? Buffer.alloc(0),
      eol: '\r\n',
      framing: 'length',
    };
    m.apply(draft);
    const bytes = encode(draft);
    return {
      request: { ...request, method: draft.method, url: draft.target },
      mutation: m,
      // Node's parser refuses a target with bytes a request line cannot hold, and a head over 16 KiB.
      malformed: m.malformed || !/^\/[\u0021-\u007e]*$/.test(draft.target) || bytes.indexOf('\r\n\r\n') > 16_000,
      bytes,
      head: draft.method === 'HEAD',
    };
  });
}
