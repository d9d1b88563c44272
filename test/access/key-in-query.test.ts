/**
 * Rule 4: a key must never be sent in a query string. Any key-shaped value
 * there is a 400 api_key_in_query before anything else, and the key reaches no
 * log line, whatever the route, the headers or the encoding.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { serializers } from '../../src/http/logging.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bearer, randomPart, revokedKey, unknownKey } from './helpers.ts';

let ctx: TestContext;
let app: FastifyInstance;
const logged: string[] = [];

function percentEncode(ch: string): string {
  return `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  // The logger the server process uses (src/main.js), writing to a captured stream.
  app = await buildApp(ctx.deps, { logger: { level: 'trace', serializers, stream } });
  await app.ready();
});
after(async () => {
  await app.close();
  await ctx.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

function assertNotLogged(secret: string): void {
  assert.ok(logged.length > 0, 'nothing was logged: the capture is not working');
  const line = logged.find((l) => l.includes(secret));
  assert.equal(line, undefined, `a log line contains the key: ${line}`);
}

describe('400 api_key_in_query', () => {
  test('a key as a plain parameter value, with or without a valid header', async () => {
    for (const headers of [{}, bearer(ctx.key), { 'x-api-key': ctx.key }]) {
      for (const url of [`/v1/codes?api_key=${ctx.key}`, `/v1/codes?limit=5&key=${ctx.key}`, `/v1/changes?token=${ctx.key}&limit=1`]) {
        const error = assertError(await get(url, headers), 400, 'api_key_in_query');
        assert.ok(!error.message.includes(randomPart(ctx.key)), 'the message echoes the key');
      }
    }
  });

  test('any key shape counts: unknown, revoked and test keys too', async () => {
    for (const key of [unknownKey('live'), unknownKey('test'), await revokedKey(ctx)]) {
      assertError(await get(`/v1/codes?k=${key}`, bearer(ctx.key)), 400, 'api_key_in_query');
    }
  });

  test('a key with one character percent-encoded beside a broken escape is still found, and not logged', async () => {
    logged.length = 0;
    const random = randomPart(ctx.key);
    const encoded = `svc_live_%${random.charCodeAt(0).toString(16)}${random.slice(1)}`;
    for (const tail of ['%', '%ZZ', '%G0']) {
      assertError(await get(`/v1/codes?x=${encoded}${tail}`), 400, 'api_key_in_query');
      assertError(await get(`/v1/codes?cursor=${encoded}${tail}`, bearer(ctx.key)), 400, 'api_key_in_query');
    }
    assertNotLogged(random.slice(1));
  });

  test('a key as a parameter name, or a key inside a longer value', async () => {
    assertError(await get(`/v1/codes?${ctx.key}`), 400, 'api_key_in_query');
    assertError(await get(`/v1/codes?${ctx.key}=1`), 400, 'api_key_in_query');
    assertError(await get(`/v1/codes?q=Bearer+${ctx.key}`, bearer(ctx.key)), 400, 'api_key_in_query');
    assertError(await get(`/v1/codes?q=x${ctx.key}y`, bearer(ctx.key)), 400, 'api_key_in_query');
  });

  test('percent-encoded keys, any parameter name and any characters encoded (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z_]{1,12}$/),
        fc.array(fc.boolean(), { minLength: ctx.key.length, maxLength: ctx.key.length }),
        fc.constantFrom('/v1/codes', '/v1/codes/demo:A', '/v1/changes', '/v1/nowhere'),
        fc.boolean(),
        async (name, mask, path, withHeader) => {
          const encoded = [...ctx.key].map((ch, i) => (mask[i] ? percentEncode(ch) : ch)).join('');
          const res = await get(`${path}?${name}=${encoded}`, withHeader ? bearer(ctx.key) : {});
          assertError(res, 400, 'api_key_in_query');
        },
      ),
      { numRuns: 100 },
    );
  });

  test('the random part alone, or a non-key value, is an ordinary parameter', async () => {
    // Not key-shaped: handled as an unknown parameter after authentication.
    assertError(await get(`/v1/codes?q=${randomPart(ctx.key)}`, bearer(ctx.key)), 400, 'unknown_parameter');
    assertError(await get(`/v1/codes?q=svc_live_short`, bearer(ctx.key)), 400, 'unknown_parameter');
  });

  test('a key whose letters are percent-encoded is caught even when another parameter is not valid percent-encoding', async () => {
    const encoded = [...ctx.key].map(percentEncode).join('');
    assertError(await get(`/v1/codes?a=%zz&b=${encoded}`, bearer(ctx.key)), 400, 'api_key_in_query');
  });
});

describe('keys never reach the log', () => {
  test('keys in query strings and in headers, accepted or refused, are not logged', async () => {
    const revoked = await revokedKey(ctx);
    const unknown = unknownKey();
    // Only this test's requests (another test sends the bare random part on purpose).
    logged.length = 0;
    const encoded = ctx.key.replaceAll('_', '%5F');
    await get(`/v1/codes?api_key=${ctx.key}`);
    await get(`/v1/codes?api_key=${encoded}`);
    await get(`/v1/codes?api_key=${[...ctx.key].map(percentEncode).join('')}`);
    await get(`/v1/codes?api_key=${revoked}`, bearer(ctx.key));
    await get(`/v1/nowhere?api_key=${unknown}`);
    await get(`/elsewhere?k=${ctx.key}`);
    await get('/v1/codes', bearer(ctx.key));
    await get('/v1/codes', { 'x-api-key': ctx.key });
    await get('/v1/codes', bearer(revoked));
    await get('/v1/codes', bearer(unknown));
    await get('/v1/codes', { authorization: `Basic ${ctx.key}` });
    for (const key of [ctx.key, revoked, unknown]) {
      assertNotLogged(randomPart(key));
      assertNotLogged(encodeURIComponent(randomPart(key)));
    }
    // The requests were logged, just without the keys.
    assert.ok(logged.some((l) => l.includes('[REDACTED]')));
    assert.ok(logged.filter((l) => l.includes('"statusCode":400')).length >= 3);
  });

  test('the one-time token of a dashboard password link is not logged', async () => {
    logged.length = 0;
    const token = 'ENj6x3192_3bYaMc4QqdzenqR-tbhzEiZbkphv169d4';
    await get(`/dashboard/set-password?token=${token}`);
    await get(`/dashboard/set-password?a=1&token=${token}`);
    assertNotLogged(token);
    assert.ok(logged.some((l) => l.includes('token=[REDACTED]')));
  });

  test('a key sent as a path segment (a client mistake) is not logged either', async () => {
    logged.length = 0;
    await get(`/v1/codes/${ctx.key}`, bearer(ctx.key));
    await get(`/v1/${ctx.key}`, bearer(ctx.key));
    assertNotLogged(randomPart(ctx.key));
  });

  test('redaction does not depend on the caller passing the logging serializers', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const plain = await buildApp(ctx.deps, { logger: { level: 'info', stream } });
    try {
      await plain.inject({ method: 'GET', url: `/v1/codes?api_key=${ctx.key}` });
      assert.ok(lines.length > 0);
      assert.ok(!lines.join('').includes(randomPart(ctx.key)));
    } finally {
      await plain.close();
    }
  });
});
