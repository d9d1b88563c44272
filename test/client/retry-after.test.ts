/**
 * Retry-After as something between the client and the service may send it:
 * longer than the client waits, longer than a timer can hold. The answers come
 * from a stub fetch shaped as the API's error answers, so each test decides
 * the header exactly.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Codebook, RateLimitExceededError, ServiceUnavailableError, type CodebookOptions } from '../../clients/typescript/src/index.ts';

const KEY = `svc_live_${'x'.repeat(32)}`;
const CODE = { id: 'alpha:C000' };

/** An error answer of the API, with these extra headers. */
function errorAnswer(status: 429 | 503, headers: Record<string, string>): Response {
  const code = status === 429 ? 'rate_limit_exceeded' : 'service_unavailable';
  return new Response(JSON.stringify({ error: { code, message: 'Try again later.' } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A client whose fetch gives these answers in turn (the last one from then on), and the times it was called. */
function clientAnswering(answers: (() => Response)[], options: CodebookOptions = {}) {
  const sent: number[] = [];
  const client = new Codebook({
    apiKey: KEY,
    baseUrl: 'http://127.0.0.1:9',
    ...options,
    fetch: () => {
      sent.push(Date.now());
      return Promise.resolve(answers[Math.min(sent.length, answers.length) - 1]!());
    },
  });
  return { client, sent };
}

const ok = () => new Response(JSON.stringify(CODE), { status: 200, headers: { 'content-type': 'application/json' } });

describe('a Retry-After longer than the client waits', () => {
  test('one longer than a timer holds (over 24.8 days) is not retried after 1 ms: the error comes at once, with its retryAfter', async () => {
    const { client, sent } = clientAnswering([() => errorAnswer(429, { 'retry-after': '3000000' })], { maxRetries: 2 });
    const error = await client.codes.get('alpha:C000').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitExceededError, String(error));
    assert.equal(error.retryAfter, 3_000_000);
    assert.equal(sent.length, 1, 'no retry');
  });

  test('one of two minutes, from a 429 or a 503, is not waited out: the error comes at once', { timeout: 5_000 }, async () => {
    for (const status of [429, 503] as const) {
      const { client, sent } = clientAnswering([() => errorAnswer(status, { 'retry-after': '120' })], { maxRetries: 2 });
      const started = Date.now();
      const error = await client.codes.get('alpha:C000').catch((e: unknown) => e);
      assert.ok(error instanceof (status === 429 ? RateLimitExceededError : ServiceUnavailableError), String(error));
      assert.equal(error.retryAfter, 120);
      assert.equal(sent.length, 1, 'no retry');
      assert.ok(Date.now() - started < 1_000);
    }
  });

  test('one within the bound is waited out, and the retry is made', async () => {
    const { client, sent } = clientAnswering([() => errorAnswer(503, { 'retry-after': '1' }), ok]);
    assert.deepEqual(await client.codes.get('alpha:C000'), CODE);
    assert.equal(sent.length, 2);
    assert.ok(sent[1]! - sent[0]! >= 950, 'the retry waited Retry-After');
  });

  test('a follower waits out a Retry-After longer than a timer holds, instead of asking again every millisecond; its signal still stops it', async (t) => {
    const { client, sent } = clientAnswering([() => errorAnswer(429, { 'retry-after': '3000000' })]);
    const stop = new AbortController();
    t.after(() => stop.abort());
    const feed = client.changes.follow({ signal: stop.signal, pollIntervalMs: 10 });
    const loop = (async () => {
      for await (const change of feed) assert.fail(`yielded ${JSON.stringify(change)}`);
    })();
    await sleep(300);
    assert.equal(sent.length, 1, 'one request, then the wait');
    stop.abort();
    await loop;
  });
});

describe('a Retry-After in its HTTP-date form', () => {
  /** The retryAfter of the error a call without retries throws for this answer. */
  async function retryAfterOf(headers: Record<string, string>): Promise<number | undefined> {
    const { client } = clientAnswering([() => errorAnswer(429, headers)], { maxRetries: 0 });
    const error = await client.codes.get('alpha:C000').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitExceededError, String(error));
    return error.retryAfter;
  }

  test("is read in each of RFC 9110's three forms, counted from the answer's Date", async () => {
    const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
    assert.equal(await retryAfterOf({ date, 'retry-after': 'Sun, 06 Nov 1994 08:50:07 GMT' }), 30, 'IMF-fixdate');
    assert.equal(await retryAfterOf({ date, 'retry-after': 'Sunday, 06-Nov-94 08:49:42 GMT' }), 5, 'RFC 850');
    assert.equal(await retryAfterOf({ date, 'retry-after': 'Sun Nov  6 08:49:39 1994' }), 2, 'asctime');
    assert.equal(await retryAfterOf({ date, 'retry-after': 'Mon, 07 Nov 1994 08:49:37 GMT' }), 86_400, 'a day later');
    assert.equal(await retryAfterOf({ date, 'retry-after': 'Sun, 06 Nov 1994 08:49:00 GMT' }), 0, 'a date already past');
  });

  test('without a Date, is counted from the clock; what is not a date is ignored', async () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const seconds = await retryAfterOf({ 'retry-after': inTenSeconds });
    assert.ok(seconds !== undefined && seconds >= 9 && seconds <= 10, String(seconds));
    assert.equal(await retryAfterOf({ 'retry-after': 'soon' }), undefined);
    assert.equal(await retryAfterOf({ 'retry-after': 'Sun, 31 Feb 2099 08:49:37 GMT' }), undefined, 'no 31 February');
    assert.equal(await retryAfterOf({ 'retry-after': 'Sun, 06 Nov 2099 25:49:37 GMT' }), undefined, 'no 25th hour');
  });

  test('is waited out before the retry, instead of the backoff', async () => {
    const date = new Date(Math.ceil(Date.now() / 1000) * 1000);
    const headers = { date: date.toUTCString(), 'retry-after': new Date(date.getTime() + 2_000).toUTCString() };
    const { client, sent } = clientAnswering([() => errorAnswer(503, headers), ok]);
    assert.deepEqual(await client.codes.get('alpha:C000'), CODE);
    assert.equal(sent.length, 2);
    assert.ok(sent[1]! - sent[0]! >= 1_900, `the retry waited the 2 s the date asked for, not a backoff of 0.25–0.5 s (${sent[1]! - sent[0]!} ms)`);
  });
});
