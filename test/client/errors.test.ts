/**
 * Each error class, provoked the way a user meets it against a real server:
 * a wrong key, an endpoint the plan lacks, a bad cursor, an unknown code, a
 * bad or unknown parameter, a key in the query, a wrong base URL, a method the
 * path does not allow, a broken store, something that is not the API, an
 * answer cut off partway or whole but not JSON, a service that does not
 * answer in time. Only the failures to get an answer are retried.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ApiKeyInQueryError,
  Codebook,
  CodebookConnectionError,
  CodebookError,
  CodebookTimeoutError,
  CodeNotFoundError,
  EndpointNotAvailableOnPlanError,
  InternalError,
  InvalidApiKeyError,
  InvalidCursorError,
  InvalidParameterError,
  MethodNotAllowedError,
  RouteNotFoundError,
  UnknownParameterError,
  type CodebookOptions,
} from '../../clients/typescript/src/index.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { CUT_BYTES, codeRows, recordingFetch, startGateway, startTestServer, type TestServer } from './server.ts';

let server: TestServer;
let key: string;

before(async () => {
  server = await startTestServer({ faulty: true });
  key = await server.customer();
  await server.importRows(codeRows(5), { system: 'alpha', release: 'r1', effectiveDate: '2024-01-01' });
});
after(() => server.close());

/** The error a call rejects with, and the requests the client sent for it (retries on, as by default). */
async function failure(call: (client: Codebook) => PromiseLike<unknown>, options: CodebookOptions = {}): Promise<{ error: CodebookError; requests: number }> {
  const recorder = recordingFetch();
  const client = new Codebook({ apiKey: key, baseUrl: server.url, fetch: recorder.fetch, ...options });
  const error = await Promise.resolve(call(client)).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof CodebookError, `not a CodebookError: ${String(error)}`);
  return { error, requests: recorder.sent.length };
}

function assertApiError(error: CodebookError, status: number, code: string): void {
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  assert.match(error.requestId ?? '', /^req_[0-9a-f]{32}$/);
  assert.ok(error.message.length > 0);
  assert.ok(error.stack?.includes(error.message));
}

describe('API errors', () => {
  test('a wrong key: InvalidApiKeyError, not retried', async () => {
    const { error, requests } = await failure((c) => c.codes.get('alpha:C000'), { apiKey: `svc_live_${'Zz9'.repeat(11).slice(0, 32)}` });
    assert.ok(error instanceof InvalidApiKeyError);
    assertApiError(error, 401, 'invalid_api_key');
    assert.equal(error.name, 'InvalidApiKeyError');
    assert.equal(requests, 1);
  });

  test('changes.list with a key whose plan lacks it: EndpointNotAvailableOnPlanError, not retried', async () => {
    const free = await server.customer({ endpoints: ['codes.list', 'codes.get'] });
    const { error, requests } = await failure((c) => c.changes.list(), { apiKey: free });
    assert.ok(error instanceof EndpointNotAvailableOnPlanError);
    assertApiError(error, 403, 'endpoint_not_available_on_plan');
    assert.equal(requests, 1);
  });

  test('a malformed cursor, and a cursor of another collection: InvalidCursorError', async () => {
    const garbage = await failure((c) => c.codes.list({ cursor: 'not-a-cursor' }));
    assert.ok(garbage.error instanceof InvalidCursorError);
    assertApiError(garbage.error, 400, 'invalid_cursor');
    assert.equal(garbage.error.param, 'cursor');
    assert.equal(garbage.requests, 1);
    const client = new Codebook({ apiKey: key, baseUrl: server.url });
    const changesCursor = (await client.changes.list({ limit: 1 })).nextCursor;
    await assert.rejects(client.codes.list({ cursor: changesCursor }), InvalidCursorError);
  });

  test('an unknown code: CodeNotFoundError, not retried', async () => {
    const { error, requests } = await failure((c) => c.codes.get('alpha:NOPE'));
    assert.ok(error instanceof CodeNotFoundError);
    assertApiError(error, 404, 'code_not_found');
    assert.equal(requests, 1);
  });

  test('a bad value: InvalidParameterError naming the parameter', async () => {
    const limit = await failure((c) => c.codes.list({ limit: 0 }));
    assert.ok(limit.error instanceof InvalidParameterError);
    assertApiError(limit.error, 400, 'invalid_parameter');
    assert.equal(limit.error.param, 'limit');
    const date = await failure((c) => c.changes.list({ effective_from: '2024-13-45' }));
    assert.ok(date.error instanceof InvalidParameterError);
    assert.equal(date.error.param, 'effective_from');
    assert.equal(date.requests, 1);
  });

  test('offset paging: UnknownParameterError, whose message explains cursors', async () => {
    const { error } = await failure((c) => c.codes.list({ offset: 50 } as never));
    assert.ok(error instanceof UnknownParameterError);
    assertApiError(error, 400, 'unknown_parameter');
    assert.equal(error.param, 'offset');
    assert.match(error.message, /cursor/);
  });

  test('a key-shaped value in the query: ApiKeyInQueryError', async () => {
    const { error } = await failure((c) => c.codes.list({ system: `svc_live_${'a'.repeat(32)}` }));
    assert.ok(error instanceof ApiKeyInQueryError);
    assertApiError(error, 400, 'api_key_in_query');
  });

  test('a base URL that already ends in /v1: RouteNotFoundError', async () => {
    const { error } = await failure((c) => c.codes.list(), { baseUrl: `${server.url}/v1` });
    assert.ok(error instanceof RouteNotFoundError);
    assertApiError(error, 404, 'route_not_found');
  });

  test('a method the path does not allow: MethodNotAllowedError', async () => {
    const { error, requests } = await failure((c) => c.request({ method: 'POST', path: '/v1/codes', body: {} }));
    assert.ok(error instanceof MethodNotAllowedError);
    assertApiError(error, 405, 'method_not_allowed');
    assert.equal(requests, 1);
  });

  test('a read the service fails: InternalError, not retried', async () => {
    server.faults!.fault = 'broken';
    try {
      const { error, requests } = await failure((c) => c.codes.get('alpha:C000'));
      assert.ok(error instanceof InternalError);
      assertApiError(error, 500, 'internal_error');
      assert.equal(error.name, 'InternalError');
      assert.equal(requests, 1);
    } finally {
      server.faults!.fault = null;
    }
  });

  test('instanceof narrows each class apart from the others', async () => {
    const { error } = await failure((c) => c.codes.get('alpha:NOPE'));
    assert.ok(!(error instanceof InvalidApiKeyError));
    assert.ok(!(error instanceof CodebookConnectionError));
    assert.ok(error instanceof Error);
  });
});

describe('no API answer', () => {
  test('something other than the API (a dashboard HTML page): CodebookConnectionError with the status, not retried', async () => {
    const { error, requests } = await failure((c) => c.codes.list(), { baseUrl: `${server.url}/dashboard` });
    assert.ok(error instanceof CodebookConnectionError);
    assert.equal(error.status, 404);
    assert.equal(error.retryable, false);
    assert.match(error.message, /other than JSON \(text\/html/);
    assert.equal(requests, 1);
  });

  test('an answer whose connection drops partway through the body, every time: a retryable CodebookConnectionError that says so, after the retries', async (t) => {
    const gateway = await startGateway(server.url, () => 'cut');
    t.after(() => gateway.close());
    const { error, requests } = await failure((c) => c.codes.list(), { baseUrl: gateway.url, maxRetries: 2 });
    assert.ok(error instanceof CodebookConnectionError);
    assert.ok(!(error instanceof CodebookTimeoutError));
    assert.equal(error.retryable, true);
    assert.equal(error.status, 200);
    assert.match(error.requestId ?? '', /^req_[0-9a-f]{32}$/);
    assert.match(error.message, /^The connection was dropped while the answer to GET \/v1\/codes \(200\) was read: /);
    assert.doesNotMatch(error.message, /other than JSON|Codebook service/);
    assert.equal(requests, 3);
    assert.deepEqual(gateway.moves, ['cut', 'cut', 'cut']);
  });

  test(`a whole 200 answer of the same first ${CUT_BYTES} bytes, which are not JSON: CodebookConnectionError with the status, not retried`, async (t) => {
    const gateway = await startGateway(server.url, () => 'short');
    t.after(() => gateway.close());
    const { error, requests } = await failure((c) => c.codes.list(), { baseUrl: gateway.url });
    assert.ok(error instanceof CodebookConnectionError);
    assert.equal(error.status, 200);
    assert.equal(error.retryable, false);
    assert.match(
      error.message,
      /^GET \/v1\/codes was answered 200 with something other than JSON \(application\/json[^)]*\): is http:\/\/127\.0\.0\.1:\d+ a Codebook service\?$/,
    );
    assert.equal(requests, 1);
    assert.deepEqual(gateway.moves, ['short']);
  });

  test('nothing listening: CodebookConnectionError after the retries', async () => {
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(server.url).port));
    await proxy.start();
    await proxy.cut();
    const { error, requests } = await failure((c) => c.codes.get('alpha:C000'), { baseUrl: `http://127.0.0.1:${proxy.port}`, maxRetries: 1 });
    assert.ok(error instanceof CodebookConnectionError);
    assert.equal(error.status, 0);
    assert.equal(error.retryable, true);
    assert.match(error.message, /^Could not reach http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(requests, 2);
  });

  test('a service that does not answer in time: CodebookTimeoutError, a CodebookConnectionError', async () => {
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(server.url).port));
    await proxy.start();
    proxy.stall();
    try {
      const { error, requests } = await failure((c) => c.codes.get('alpha:C000'), { baseUrl: `http://127.0.0.1:${proxy.port}`, timeoutMs: 200, maxRetries: 0 });
      assert.ok(error instanceof CodebookTimeoutError);
      assert.ok(error instanceof CodebookConnectionError);
      assert.equal(error.code, 'timeout');
      assert.match(error.message, /within 200 ms/);
      assert.equal(requests, 1);
    } finally {
      await proxy.close();
    }
  });
});
