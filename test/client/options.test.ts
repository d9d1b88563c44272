/**
 * A call's own options (maxRetries, timeoutMs) are checked as the client's
 * are: a value that would retry forever or never time out is refused before
 * anything is sent. The answers come from a stub fetch.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Codebook, ServiceUnavailableError } from '../../clients/typescript/src/index.ts';

/** A client whose fetch answers 503 with Retry-After: 0 (so retries are immediate) until the 20th request, then 200. */
function clientOf503s() {
  let sent = 0;
  const client = new Codebook({
    apiKey: `svc_live_${'x'.repeat(32)}`,
    baseUrl: 'http://127.0.0.1:9',
    fetch: () => {
      sent++;
      const body = sent < 20 ? { error: { code: 'service_unavailable', message: 'Try again.' } } : { id: 'alpha:C000' };
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: sent < 20 ? 503 : 200, headers: { 'content-type': 'application/json', 'retry-after': '0' } }),
      );
    },
  });
  return { client, sent: () => sent };
}

describe("a call's options", () => {
  test('maxRetries that is not an integer of at least 0 (Infinity, negative, NaN, a fraction) is refused as the constructor refuses it, before anything is sent', async () => {
    for (const maxRetries of [Infinity, -1, NaN, 1.5]) {
      assert.throws(() => new Codebook({ apiKey: `svc_live_${'x'.repeat(32)}`, maxRetries }), /maxRetries must be an integer of at least 0/);
      const { client, sent } = clientOf503s();
      await assert.rejects(
        client.codes.get('alpha:C000', { maxRetries }),
        { name: 'TypeError', message: /maxRetries must be an integer of at least 0/ },
        String(maxRetries),
      );
      await assert.rejects(client.request({ path: '/v1/codes', maxRetries }), /maxRetries must be an integer of at least 0/);
      assert.equal(sent(), 0, `nothing sent with maxRetries ${maxRetries}`);
    }
  });

  test('timeoutMs that is not a positive number (0, negative, NaN, Infinity) is refused, before anything is sent', async () => {
    for (const timeoutMs of [0, -5, NaN, Infinity]) {
      const { client, sent } = clientOf503s();
      await assert.rejects(
        client.codes.list({ timeoutMs }),
        { name: 'TypeError', message: /timeoutMs must be a positive number of milliseconds/ },
        String(timeoutMs),
      );
      assert.equal(sent(), 0, `nothing sent with timeoutMs ${timeoutMs}`);
    }
  });

  test('a follower with maxRetries Infinity ends with the TypeError instead of retrying forever', async () => {
    const { client, sent } = clientOf503s();
    const feed = client.changes.follow({ maxRetries: Infinity, signal: AbortSignal.timeout(5_000) });
    await assert.rejects(
      (async () => {
        for await (const change of feed) assert.fail(`yielded ${JSON.stringify(change)}`);
      })(),
      /maxRetries must be an integer of at least 0/,
    );
    assert.equal(sent(), 0);
  });

  test('valid values still apply to the call: maxRetries 0 sends one request, 2 sends three', async () => {
    for (const [maxRetries, requests] of [
      [0, 1],
      [2, 3],
    ] as const) {
      const { client, sent } = clientOf503s();
      await assert.rejects(client.codes.get('alpha:C000', { maxRetries, timeoutMs: 1_000 }), ServiceUnavailableError);
      assert.equal(sent(), requests);
    }
  });
});
