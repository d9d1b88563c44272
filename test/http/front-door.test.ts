/**
 * Requests at the very front of the server, over a real socket: every method
 * Node's parser accepts, CONNECT, HTTP/1.1 without Host, and requests that
 * arrive while the server drains. Each is answered in the one error shape
 * (an HTML page under /dashboard) with a Request-Id.
 */
import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertHtmlErrorPage, assertJsonError, type AnyResponse } from '../helpers/error-shape.ts';
import { parseResponses, rawExchange, type RawResponse } from '../helpers/raw-http.ts';

const V1_PATHS = ['/v1/codes', '/v1/codes/demo%3AA', '/v1/codes/demo%3AA/changes', '/v1/changes'];

const view = (res: RawResponse): AnyResponse => ({ status: res.status, header: (name) => res.headers.get(name), body: res.body });

async function listening(): Promise<{ ctx: TestContext; port: number }> {
  const ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return { ctx, port: Number(new URL(address).port) };
}

describe('the front door, over a real socket', () => {
  let ctx: TestContext;
  let port: number;
  before(async () => ({ ctx, port } = await listening()));
  after(() => ctx.close());

  /** One request on its own connection; its one answer, with the connection closed after it. */
  async function one(bytes: string, head = false): Promise<RawResponse> {
    const { text, closed } = await rawExchange(port, bytes);
    assert.ok(closed, `no end of the answer to ${JSON.stringify(bytes.slice(0, 60))}: ${JSON.stringify(text.slice(0, 200))}`);
    const responses = parseResponses(text, () => head);
    assert.equal(responses.length, 1, `answers to ${JSON.stringify(bytes.slice(0, 60))}: ${JSON.stringify(text.slice(0, 300))}`);
    return responses[0]!;
  }

  test("every method Node's parser accepts answers 405 with Allow on every /v1 path, after authentication", async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    for (const method of METHODS) {
      const head = method === 'HEAD';
      for (const path of V1_PATHS) {
        const what = `${method} ${path}`;
        const noKey = await one(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, head);
        assert.equal(noKey.status, 401, what);
        if (!head) assert.equal(assertJsonError(view(noKey), what).code, 'invalid_api_key');
        const withKey = await one(`${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, head);
        if (method === 'GET' || method === 'HEAD') {
          assert.equal(withKey.status, 200, what);
          continue;
        }
        assert.equal(withKey.status, 405, `${what}: ${withKey.body}`);
        assert.equal(assertJsonError(view(withKey), what).code, 'method_not_allowed');
        assert.equal(withKey.headers.get('allow'), 'GET, HEAD', what);
      }
    }
  });

  test("methods Node's parser does not know are refused by it, still in the one shape", async () => {
    for (const method of ['FOO', 'get', 'DESCRIBE', 'G€T']) {
      const res = await one(`${method} /v1/codes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assert.equal(res.status, 400, method);
      assert.equal(assertJsonError(view(res), method).code, 'invalid_parameter');
    }
  });

  test('CONNECT is answered in the one shape, and the connection closed: 401, then 405 with Allow, 404 off the API', async () => {
    const noKey = await one('CONNECT /v1/codes HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(assertJsonError(view(noKey), 'CONNECT without a key').code, 'invalid_api_key');
    const withKey = await one(`CONNECT /v1/codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`);
    assert.equal(assertJsonError(view(withKey), 'CONNECT with a key').code, 'method_not_allowed');
    assert.equal(withKey.headers.get('allow'), 'GET, HEAD');
    const proxy = await one('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    assert.equal(assertJsonError(view(proxy), 'CONNECT to a host').code, 'route_not_found');
    for (const res of [noKey, withKey, proxy]) assert.equal(res.headers.get('connection'), 'close');
    // Bytes sent after the CONNECT are not a tunnel: the connection just ends after the answer.
    const { text, closed } = await rawExchange(
      port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      { end: false },
    );
    assert.ok(closed, 'the connection stays open');
    assert.equal(parseResponses(text).length, 1);
  });

  test('an Expect other than 100-continue is ignored: the request is answered as any other, in the one shape, with a Request-Id', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    for (const expect of ['foo', '200-ok', '']) {
      const what = `Expect: ${expect}`;
      const ok = await one(`GET /v1/codes/demo:A HTTP/1.1\r\nHost: x\r\nExpect: ${expect}\r\n${auth}Connection: close\r\n\r\n`);
      assert.equal(ok.status, 200, `${what}: ${ok.body}`);
      assert.equal(JSON.parse(ok.body).id, 'demo:A', what);
      assert.match(ok.headers.get('request-id') ?? '', /^req_[0-9a-f]{32}$/, what);
      const noKey = await one(`GET /v1/codes/demo:A HTTP/1.1\r\nHost: x\r\nExpect: ${expect}\r\nConnection: close\r\n\r\n`);
      assert.equal(assertJsonError(view(noKey), what).code, 'invalid_api_key');
      const nowhere = await one(`GET /nowhere HTTP/1.1\r\nHost: x\r\nExpect: ${expect}\r\nConnection: close\r\n\r\n`);
      assert.equal(assertJsonError(view(nowhere), what).code, 'route_not_found');
    }
  });

  test('an HTTP/1.1 request without Host gets 400 in the one shape (an HTML page on the dashboard); HTTP/1.0 needs none', async () => {
    for (const path of ['/v1/codes', '/healthz', '/nowhere']) {
      const res = await one(`GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`);
      assert.equal(res.status, 400, path);
      assert.equal(assertJsonError(view(res), path).code, 'invalid_parameter');
      assert.equal(res.headers.get('connection'), 'close', path);
    }
    const page = await one('GET /dashboard/login HTTP/1.1\r\n\r\n');
    assert.equal(page.status, 400);
    assertHtmlErrorPage(view(page), 'dashboard without Host');
    const old = await one(`GET /v1/codes HTTP/1.0\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`);
    assert.equal(old.status, 200, old.body);
  });
  test('two Host lines, or a Host that is no host, get 400 in the one shape (an HTML page on the dashboard), the express lane too', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    // The key known to the express lane, so that a record by its id would be the lane's.
    assert.equal((await one(`GET /v1/codes/demo:A HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`)).status, 200);
    const hosts = [
      'Host: x\r\nHost: x',
      'Host: x\r\nHost: y',
      'Host: a b',
      'Host: x"><b>',
      'Host: a/b',
      'Host: user@example.com',
      'Host: x:80:80',
      'Host: [::1',
      'Host: x:8o',
    ];
    for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
      for (const path of ['/v1/codes/demo:A', '/v1/codes', '/healthz', '/nowhere']) {
        for (const host of hosts) {
          const what = `${version} ${path} ${JSON.stringify(host)}`;
          const res = await one(`GET ${path} ${version}\r\n${host}\r\n${auth}Connection: close\r\n\r\n`);
          assert.equal(res.status, 400, `${what}: ${res.body}`);
          const error = assertJsonError(view(res), what);
          assert.equal(error.code, 'invalid_parameter', what);
          assert.match(error.message, /Host/, what);
          assert.equal(res.headers.get('connection'), 'close', what);
        }
      }
    }
    for (const host of ['Host: x\r\nHost: x', 'Host: a b']) {
      const page = await one(`GET /dashboard/login HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`);
      assert.equal(page.status, 400, host);
      assertHtmlErrorPage(view(page), `dashboard with ${JSON.stringify(host)}`);
    }
  });

  test('every valid Host is served, whatever its form', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    const hosts = [
      'localhost:3000',
      '127.0.0.1',
      '[::1]:8080',
      '[::ffff:127.0.0.1]',
      '[v1.fe80::a+en1]',
      'codes.example.org',
      'my-host_1.Example.ORG:8443',
      'xn--bcher-kva.example',
      'a%2Db.example',
      '',
      'example.com:',
    ];
    for (const path of ['/v1/codes/demo:A', '/v1/codes', '/healthz']) {
      for (const host of hosts) {
        const res = await one(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${auth}Connection: close\r\n\r\n`);
        assert.equal(res.status, 200, `${path} Host: ${host}: ${res.body}`);
      }
    }
    // An absolute-form target: its authority names the host, and the Host line is checked all the same.
    const absolute = await one(`GET http://codes.example.org/healthz HTTP/1.1\r\nHost: codes.example.org\r\nConnection: close\r\n\r\n`);
    assert.notEqual(absolute.status, 400, absolute.body);
  });

  test('a /v1 target in absolute form is checked in the same order as its origin form: the key before a path that does not decode', async () => {
    const auth = `Authorization: Bearer ${ctx.key}\r\n`;
    for (const target of [
      'http://x/v1/codes/demo:%ZZ',
      'https://x:8443/v1/codes/demo:%FF/changes',
      'HTTP://x/v1/codes/demo:%ZZ',
      'http://x/v1/codes/demo%3AA',
    ]) {
      const noKey = await one(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assert.equal(noKey.status, 401, `${target}: ${noKey.body}`);
      assert.equal(assertJsonError(view(noKey), target).code, 'invalid_api_key');
    }
    const bad = await one(`GET http://x/v1/codes/demo:%ZZ HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    assert.equal(bad.status, 400, bad.body);
    assert.equal(assertJsonError(view(bad), 'bad escape').code, 'invalid_parameter');
    assert.ok(bad.headers.get('ratelimit'), 'the 400 of an admitted request is counted and carries its RateLimit fields');
    const good = await one(`GET http://x/v1/codes/demo%3AA HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    assert.equal(good.status, 200, good.body);
    // A /v1 path in the query after the authority is no path: the router serves the landing page, the query as sent.
    const inQuery = await one(`GET http://x?next=/v1/codes/demo:%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(inQuery.status, 200, inQuery.body);
  });
});

test('requests that arrive while the server drains get 503 service_unavailable in the one shape, with Retry-After, and the connection closes', async () => {
  const { ctx, port } = await listening();
  try {
    // A request in flight (its body not yet sent) keeps the connection open while the server starts closing.
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /dashboard/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\n\r\nemail');
    await sleep(50);
    const closing = ctx.app.close();
    await sleep(50);
    // The rest of that body, then three requests behind it on the same connection.
    socket.write(
      `=x@yzGET /v1/codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n` +
        'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /dashboard/login HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    await closed;
    await closing;
    const [inFlight, refused, ...rest] = parseResponses(text);
    assert.equal(inFlight!.status, 403, 'the request in flight is finished as usual');
    assert.equal(refused!.status, 503, refused!.body);
    assert.equal(assertJsonError(view(refused!), 'while draining').code, 'service_unavailable');
    assert.equal(refused!.headers.get('retry-after'), '1');
    assert.equal(refused!.headers.get('connection'), 'close');
    assert.deepEqual(rest, [], 'requests after the 503 are answered on the closed connection');
  } finally {
    await ctx.close();
  }
});
