/**
 * Answers written at the end of the event loop's turn (src/http/batched-response.ts),
 * over real sockets: many clients at once, each with pipelined requests that
 * take the express lane, Fastify's path and the error handler, get every answer
 * whole and in order; clients that leave before their answer is written cost
 * the others nothing; and end() itself writes nothing until the turn is over.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { httpServerOptions } from '../../src/http/front-door.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { parseResponses, rawExchange, type RawResponse } from '../helpers/raw-http.ts';
import { expressLaneCount } from '../helpers/express-lane.ts';

const ROWS = Array.from({ length: 60 }, (_, i) => ({ code: `C${String(i).padStart(3, '0')}`, display: `Code ${i}` }));

describe('answers written at the end of the turn', () => {
  let ctx: TestContext;
  let port: number;
  before(async () => {
    ctx = await createTestContext();
    await ctx.importRows(ROWS, { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  after(() => ctx.close());

  /** The requests each client pipelines: a record (the express lane once the key is cached), a page (the lane once kept), a 404, a 401, a HEAD. */
  const requests = (n: number): { bytes: string; head: boolean; check: (r: RawResponse, what: string) => void }[] => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    const code = ROWS[n % ROWS.length]!.code;
    return [
      {
        bytes: `GET /v1/codes/demo:${code} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
        head: false,
        check: (r, what) => {
          assert.equal(r.status, 200, what);
          assert.equal((JSON.parse(r.body) as { id: string }).id, `demo:${code}`, what);
        },
      },
      {
        bytes: `GET /v1/codes?limit=50 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
        head: false,
        check: (r, what) => {
          assert.equal(r.status, 200, what);
          const page = JSON.parse(r.body) as { data: { id: string }[]; pagination: { has_more: boolean } };
          assert.deepEqual(
            page.data.map((c) => c.id),
            ROWS.slice(0, 50).map((row) => `demo:${row.code}`),
            what,
          );
          assert.equal(page.pagination.has_more, true, what);
        },
      },
      {
        bytes: `GET /v1/codes/demo:NOPE HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
        head: false,
        check: (r, what) => assert.equal(r.status, 404, what),
      },
      {
        bytes: `GET /v1/codes/demo:${code} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer svc_live_${'0'.repeat(32)}\r\n\r\n`,
        head: false,
        check: (r, what) => {
          assert.equal(r.status, 401, what);
          assert.equal((JSON.parse(r.body) as { error: { code: string } }).error.code, 'invalid_api_key', what);
        },
      },
      {
        bytes: `HEAD /v1/codes/demo:${code} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
        head: true,
        check: (r, what) => {
          assert.equal(r.status, 200, what);
          assert.equal(r.body, '', what);
        },
      },
    ];
  };

  test('forty clients at once, five pipelined requests each: every answer whole, in order', async () => {
    // Once alone, so that the key is cached and the records take the express lane below, and the page is kept (and takes it too).
    assert.equal((await ctx.get(`/v1/codes/demo:${ROWS[0]!.code}`, ctx.authHeaders)).statusCode, 200);
    assert.equal((await ctx.get('/v1/codes?limit=50', ctx.authHeaders)).statusCode, 200);
    const clients = Array.from({ length: 40 }, (_, n) => requests(n));
    const laneBefore = await expressLaneCount(`http://127.0.0.1:${port}`);
    const exchanges = await Promise.all(clients.map((rs) => rawExchange(port, rs.map((r) => r.bytes).join(''), { end: false })));
    // The records, the pages and the 401s took the express lane (120 answers), the 404s and the HEADs Fastify's path: both paths are in the test.
    assert.equal((await expressLaneCount(`http://127.0.0.1:${port}`)) - laneBefore, 120);
    exchanges.forEach(({ text, closed }, n) => {
      assert.ok(closed, `client ${n}: the server closes after the last answer (Connection: close)`);
      const answers = parseResponses(text, (i) => clients[n]![i]!.head);
      assert.equal(answers.length, 5, `client ${n}: ${JSON.stringify(text.slice(0, 300))}`);
      answers.forEach((answer, i) => clients[n]![i]!.check(answer, `client ${n}, request ${i}`));
    });
  });

  test('a request the parser refuses, pipelined behind others: their answers first, then the 400, then the end', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    const get = (code: string): string => `GET /v1/codes/demo:${code} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`;
    // A record (the express lane: the key is cached by the test before), a page no request kept (Fastify, answered after a read), a record, then no HTTP at all.
    await ctx.get('/v1/codes/demo:C003', ctx.authHeaders);
    const bytes = `${get('C003')}GET /v1/codes?limit=41 HTTP/1.1\r\nHost: x\r\n${auth}\r\n${get('C004')}NOT HTTP AT ALL\r\n\r\n`;
    const { text, closed } = await rawExchange(port, bytes, { end: false });
    assert.ok(closed, 'the server ends the connection after the 400');
    const answers = parseResponses(text);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 400],
      JSON.stringify(text.slice(0, 400)),
    );
    assert.equal((JSON.parse(answers[0]!.body) as { id: string }).id, 'demo:C003');
    assert.equal((JSON.parse(answers[1]!.body) as { data: unknown[] }).data.length, 41);
    assert.equal((JSON.parse(answers[2]!.body) as { id: string }).id, 'demo:C004');
    assert.equal((JSON.parse(answers[3]!.body) as { error: { code: string } }).error.code, 'invalid_parameter');
  });

  test('clients that leave before their answer is written: the others are answered, the server goes on', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    const leaving = Array.from(
      { length: 30 },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(`GET /v1/codes?limit=50 HTTP/1.1\r\nHost: x\r\n${auth}\r\nGET /v1/codes/demo:C001 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
            socket.destroy();
          });
          socket.on('close', () => resolve());
          socket.on('error', () => resolve());
        }),
    );
    const staying = Array.from({ length: 10 }, (_, n) =>
      rawExchange(
        port,
        requests(n)
          .map((r) => r.bytes)
          .join(''),
        { end: false },
      ),
    );
    await Promise.all(leaving);
    for (const [n, { text }] of (await Promise.all(staying)).entries()) {
      const answers = parseResponses(text, (i) => requests(n)[i]!.head);
      assert.equal(answers.length, 5, `client ${n}`);
      answers.forEach((answer, i) => requests(n)[i]!.check(answer, `client ${n}, request ${i}`));
    }
    const after = await fetch(`http://127.0.0.1:${port}/v1/codes/demo:C002`, { headers: ctx.authHeaders });
    assert.equal(after.status, 200);
  });
});

test('end() writes nothing until the turn is over, and the response reads as ended from then on', async () => {
  const seen: { endedAtOnce: boolean; headersSentAtOnce: boolean; writtenAtOnce: number; writtenAfterTurn: number }[] = [];
  const server = createServer(httpServerOptions, (_request, response: ServerResponse) => {
    const socket = response.socket!;
    const before = socket.bytesWritten;
    response.end('answered');
    const endedAtOnce = response.writableEnded;
    const headersSentAtOnce = response.headersSent;
    const writtenAtOnce = socket.bytesWritten - before;
    // Queued after the turn's write: by then the answer has gone to the socket.
    setImmediate(() => seen.push({ endedAtOnce, headersSentAtOnce, writtenAtOnce, writtenAfterTurn: socket.bytesWritten - before }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    assert.equal(await res.text(), 'answered');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(seen.length, 1);
    assert.deepEqual(
      { ...seen[0], writtenAfterTurn: seen[0]!.writtenAfterTurn > 0 },
      { endedAtOnce: true, headersSentAtOnce: false, writtenAtOnce: 0, writtenAfterTurn: true },
    );
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
