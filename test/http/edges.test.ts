/**
 * Requests at the edges of HTTP: what Node's parser refuses, paths Fastify
 * cannot route, repeated Authorization or X-API-Key headers and an empty code id. Each gets
 * the one error shape, a Request-Id, and the order of checks.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
let port: number;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
after(() => ctx.close());

/** Sends raw bytes and returns the whole answer (the server closes the connection). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error('no answer')));
  });
}

function parse(answer: string): { status: number; headers: Map<string, string>; body: { error: { code: string; message: string; request_id: string } } } {
  const [head, body] = answer.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body!) };
}

test("requests Node's HTTP parser refuses get the JSON error shape with a Request-Id", async () => {
  for (const bytes of [
    'GARBAGE\r\n\r\n',
    `GET /v1/codes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    'POST /v1/codes HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  ]) {
    const res = parse(await raw(bytes));
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_parameter');
    assert.match(res.headers.get('request-id') ?? '', /^req_[0-9a-f]{32}$/);
    assert.equal(res.body.error.request_id, res.headers.get('request-id'));
  }
});

test('a /v1 path Fastify cannot route still checks the key first (401), then answers 400', async () => {
  for (const url of ['/v1/codes/demo:%FF', `/v1/codes/${'x'.repeat(3000)}`]) {
    const noKey = await ctx.app.inject({ url });
    assert.equal(noKey.statusCode, 401, url.slice(0, 40));
    assert.equal(noKey.json().error.code, 'invalid_api_key');
    assert.match(noKey.headers['request-id'] as string, /^req_/);
    const withKey = await ctx.get(url);
    assert.equal(withKey.statusCode, 400);
    assert.equal(withKey.json().error.code, 'invalid_parameter');
  }
});

test('two Authorization headers are refused, whichever holds the valid key', async () => {
  const other = `svc_live_${'A'.repeat(32)}`;
  for (const pair of [
    [ctx.key, other],
    [other, ctx.key],
  ]) {
    const res = parse(
      await raw(`GET /v1/codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${pair[0]}\r\nAuthorization: Bearer ${pair[1]}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'invalid_api_key');
  }
});

test('two X-API-Key headers are refused as two headers, the same key or not, on the lane and the full path', async () => {
  const other = `svc_live_${'A'.repeat(32)}`;
  // A record (the express lane's, once the key is known to it) and a page (the full path's).
  await ctx.app.inject({ url: '/v1/codes/demo:A', headers: { authorization: `Bearer ${ctx.key}` } });
  for (const url of ['/v1/codes/demo:A', '/v1/codes']) {
    for (const pair of [
      [ctx.key, ctx.key],
      [ctx.key, other],
      [ctx.key, ''],
    ]) {
      const res = parse(await raw(`GET ${url} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${pair[0]}\r\nX-API-Key: ${pair[1]}\r\nConnection: close\r\n\r\n`));
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'invalid_api_key');
      assert.match(res.body.error.message, /^Send one X-API-Key header\./, `${url} ${JSON.stringify(pair)}`);
    }
  }
});

test('GET /v1/codes/ (an empty code id) is no route, not an unknown code', async () => {
  const res = await ctx.get('/v1/codes/');
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().error.code, 'route_not_found');
});
