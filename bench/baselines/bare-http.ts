/**
 * Baseline L0: Node's bare http server answering every request with one
 * precomputed body (BODY_FILE) — the most a Node.js process can serve on this
 * machine at that response size. Prints "ready" once listening on PORT.
 * CONTENT_ENCODING (br, gzip) labels a precompressed body; STATUS=304 answers
 * 304 with no body and the ETag of BODY_FILE's content (ETAG). SPIN_US keeps
 * the CPU busy that many microseconds before each answer (bench/floor.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE!);
const status = Number(process.env.STATUS ?? '200');
const encoding = process.env.CONTENT_ENCODING;
const headers: Record<string, string> =
  status === 304
    ? { etag: process.env.ETAG ?? '"-"' }
    : {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
        ...(encoding ? { 'content-encoding': encoding, vary: 'Accept-Encoding' } : {}),
      };

const spinMs = Number(process.env.SPIN_US ?? '0') / 1000;

const server = createServer((_request, response) => {
  if (spinMs > 0) for (const until = performance.now() + spinMs; performance.now() < until;);
  response.writeHead(status, headers);
  response.end(status === 304 ? undefined : body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
