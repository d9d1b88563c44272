/**
 * Retries as a user meets them against a real server: a 429 for the minute's
 * rate waits Retry-After and then succeeds; the monthly allowance is never
 * retried; a connection that fails, stalls or drops partway through an answer
 * is tried again after a backoff; the caller's signal ends a call, also while it waits; and the last
 * RateLimit fields are readable.
 *
 * The limiter reads a clock that runs with real time from an offset the tests
 * move forward, so the minute can end a few seconds into a test. Whether the
 * client waited for Retry-After is judged by the requests it sent: a retry
 * sent early would meet the same full minute and be refused again.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Codebook,
  CodebookConnectionError,
  MonthlyQuotaExceededError,
  RateLimitExceededError,
  type CodebookOptions,
} from '../../clients/typescript/src/index.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { codeRows, recordingFetch, startGateway, startTestServer, type SentRequest, type TestServer } from './server.ts';

let offset = 0;
const serverNow = () => Date.now() + offset;
let server: TestServer;

before(async () => {
  server = await startTestServer({ now: serverNow });
  await server.importRows(codeRows(3), { system: 'alpha', release: 'r1', effectiveDate: '2024-01-01' });
});
after(() => server.close());

/** Moves the server's clock forward so that its current minute ends `ms` from now. */
function minuteEndsIn(ms: number): void {
  const now = serverNow();
  let target = Math.ceil(now / 60_000) * 60_000 - ms;
  if (target < now) target += 60_000;
  offset += target - now;
}

function clientFor(key: string, options: CodebookOptions = {}) {
  const recorder = recordingFetch();
  return { client: new Codebook({ apiKey: key, baseUrl: server.url, fetch: recorder.fetch, ...options }), sent: recorder.sent };
}

const statuses = (sent: SentRequest[]) => sent.map((s) => s.status ?? 'no answer');

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !condition(); await sleep(5)) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('429 rate_limit_exceeded', () => {
  test('is retried after Retry-After, and the retry is admitted by the next minute', async () => {
    const key = await server.customer({ ratePerMinute: 1 });
    const { client, sent } = clientFor(key);
    minuteEndsIn(3_000);
    assert.equal((await client.codes.get('alpha:C000')).id, 'alpha:C000');
    const code = await client.codes.get('alpha:C001');
    assert.equal(code.id, 'alpha:C001');
    assert.deepEqual(statuses(sent), [200, 429, 200], 'one refusal, then one retry that the next minute admitted');
    assert.equal(client.rateLimit?.minute?.remaining, 0);
  });

  test('without retries, RateLimitExceededError carries retryAfter, and the rate-limit state says why', async () => {
    const key = await server.customer({ ratePerMinute: 1, monthlyQuota: 1000 });
    const { client, sent } = clientFor(key, { maxRetries: 0 });
    minuteEndsIn(30_000);
    await client.codes.get('alpha:C000');
    const state = client.rateLimit;
    assert.deepEqual(state?.minute, { limit: 1, remaining: 0, resetSeconds: 30, windowSeconds: 60 });
    assert.equal(state?.month?.limit, 1000);
    assert.equal(state?.month?.remaining, 999);
    const error = await client.codes.get('alpha:C000').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitExceededError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfter, 30);
    assert.equal(sent.length, 2);
  });
});

describe('429 monthly_quota_exceeded', () => {
  test('is never retried, whatever maxRetries says', async () => {
    const key = await server.customer({ monthlyQuota: 2 });
    const { client, sent } = clientFor(key, { maxRetries: 5 });
    await client.codes.get('alpha:C000');
    await client.codes.list();
    assert.equal(client.rateLimit?.month?.remaining, 0);
    const error = await client.codes.get('alpha:C000').catch((e: unknown) => e);
    assert.ok(error instanceof MonthlyQuotaExceededError);
    assert.equal(error.status, 429);
    assert.ok(error.retryAfter !== undefined && error.retryAfter > 0);
    assert.deepEqual(statuses(sent), [200, 200, 429]);
  });
});

describe('connection failures', () => {
  let proxy: TcpProxy;
  let key: string;
  before(async () => {
    key = await server.customer();
    proxy = new TcpProxy('127.0.0.1', Number(new URL(server.url).port));
    await proxy.start();
  });
  after(() => proxy.close());
  const viaProxy = (options: CodebookOptions = {}) => clientFor(key, { baseUrl: `http://127.0.0.1:${proxy.port}`, ...options });

  test('a refused connection is tried again after a backoff, and succeeds once the service is back', async () => {
    const { client, sent } = viaProxy({ maxRetries: 3 });
    await proxy.cut();
    const call = client.codes.get('alpha:C002');
    await until(() => sent[0]?.error !== undefined, 'the first attempt to fail');
    await proxy.restore();
    assert.equal((await call).id, 'alpha:C002');
    assert.equal(sent.at(-1)?.status, 200);
    assert.ok(sent.length >= 2);
    assert.ok(sent.slice(0, -1).every((s) => s.status === null));
  });

  test('an attempt that stalls times out and is tried again', async () => {
    const { client, sent } = viaProxy({ maxRetries: 2, timeoutMs: 300 });
    proxy.stall();
    const call = client.codes.get('alpha:C002');
    try {
      await until(() => sent[0]?.error !== undefined, 'the first attempt to time out');
    } finally {
      proxy.resume();
    }
    assert.equal((await call).id, 'alpha:C002');
    assert.deepEqual(statuses(sent), ['no answer', 200]);
  });

  test("without AbortSignal.any (Node.js 18), the time limit and the caller's signal still end an attempt, and no listener stays behind", async (t) => {
    const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any')!;
    (AbortSignal as { any?: unknown }).any = undefined;
    t.after(() => {
      Object.defineProperty(AbortSignal, 'any', any);
    });
    const caller = new AbortController();
    const { client, sent } = viaProxy({ maxRetries: 0, timeoutMs: 300 });
    for (let i = 0; i < 3; i++) assert.equal((await client.codes.get('alpha:C001', { signal: caller.signal })).id, 'alpha:C001');
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    proxy.stall();
    try {
      await assert.rejects(client.codes.get('alpha:C001', { signal: caller.signal }), /No answer within 300 ms/);
      const pending = client.codes.get('alpha:C001', { signal: caller.signal, timeoutMs: 60_000 });
      await until(() => sent.length === 5, 'the last attempt to be sent');
      caller.abort(new Error('stopped by the caller'));
      await assert.rejects(pending, /stopped by the caller/);
    } finally {
      proxy.resume();
    }
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
  });

  test("the caller's signal ends the call while it waits to retry, and nothing more is sent", async () => {
    const { client, sent } = viaProxy({ maxRetries: 10 });
    await proxy.cut();
    try {
      const controller = new AbortController();
      const call = client.codes.get('alpha:C002', { signal: controller.signal });
      await until(() => sent[0]?.error !== undefined, 'the first attempt to fail');
      controller.abort();
      const error = await call.catch((e: unknown) => e);
      assert.ok(error instanceof Error && error.name === 'AbortError', String(error));
      assert.ok(!(error instanceof CodebookConnectionError));
      await sleep(600);
      assert.equal(sent.length, 1);
    } finally {
      await proxy.restore();
    }
  });
});

describe('an answer cut off partway', () => {
  test('a connection dropped after the first bytes of the body is tried again after a backoff, and the retry succeeds', async (t) => {
    const gateway = await startGateway(server.url, (request) => (request === 1 ? 'cut' : 'relay'));
    t.after(() => gateway.close());
    const { client, sent } = clientFor(await server.customer(), { baseUrl: gateway.url, maxRetries: 2 });
    const started = Date.now();
    const page = await client.codes.list();
    assert.deepEqual(
      page.data.map((c) => c.id),
      ['alpha:C000', 'alpha:C001', 'alpha:C002'],
    );
    assert.deepEqual(gateway.moves, ['cut', 'relay'], 'one cut answer, then one retry');
    assert.deepEqual(statuses(sent), [200, 200]);
    assert.ok(Date.now() - started >= 250, 'the retry waited for the first backoff (0.25–0.5 s)');
  });
});

describe('a gateway in front of the service', () => {
  test("a load balancer's HTML 502 while its upstream is away is retried; its HTML 404 is not", async (t) => {
    // A reverse proxy to the real server, answering as nginx does when it has no upstream.
    let upstreamAway = true;
    const gateway = createServer((req, res) => void relay(req, res));
    async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (upstreamAway) {
        upstreamAway = false;
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      }
      if (!req.url?.startsWith('/v1/')) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
        return;
      }
      const answer = await fetch(`${server.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } });
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
    }
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
    const key = await server.customer();
    const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const { client, sent } = clientFor(key, { baseUrl: base });
    assert.equal((await client.codes.get('alpha:C000')).id, 'alpha:C000');
    assert.deepEqual(statuses(sent), [502, 200]);
    const wrongPrefix = clientFor(key, { baseUrl: `${base}/codebook` });
    const error = await wrongPrefix.client.codes.get('alpha:C000').catch((e: unknown) => e);
    assert.ok(error instanceof CodebookConnectionError);
    assert.equal(error.status, 404);
    assert.equal(wrongPrefix.sent.length, 1);
  });
});
