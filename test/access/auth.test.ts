/**
 * Authentication through HTTP: the contract's auth rules 1–8, the 401 row of
 * its error table, and the key state table (created → active → revoked).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { revokeKey } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare, bearer, newKey, randomPart, revokedKey, unknownKey } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(() => ctx.close());

describe('401 invalid_api_key (rule 6)', () => {
  test('no key at all', async () => {
    assertError(await bare(ctx, '/v1/codes'), 401, 'invalid_api_key');
  });

  test('empty Authorization and empty X-API-Key headers', async () => {
    assertError(await bare(ctx, '/v1/codes', { authorization: '' }), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/codes', { 'x-api-key': '' }), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/codes', { authorization: 'Bearer ' }), 401, 'invalid_api_key');
  });

  test('the message says what was wrong with the headers', async () => {
    const message = async (headers: Record<string, string>) => assertError(await bare(ctx, '/v1/codes', headers), 401, 'invalid_api_key').message;
    // One key and an empty X-API-Key: no second key was sent, an empty header was.
    assert.match(await message({ ...bearer(ctx.key), 'x-api-key': '' }), /^The X-API-Key header is empty\./);
    assert.match(await message({ 'x-api-key': '' }), /^The X-API-Key header is empty\./);
    assert.match(await message({ authorization: 'Bearer' }), /^The Authorization header holds no key after Bearer\./);
    assert.match(await message({ ...bearer(ctx.key), 'x-api-key': unknownKey() }), /^Two different API keys were sent\./);
    assert.match(await message({}), /^No API key was sent\./);
  });

  test('a well-formed key that was never issued, live or test', async () => {
    for (const key of [unknownKey('live'), unknownKey('test')]) {
      const res = await bare(ctx, '/v1/codes', bearer(key));
      assertError(res, 401, 'invalid_api_key');
      assert.ok(!res.body.includes(randomPart(key)), 'the 401 body echoes the key');
    }
  });

  test('malformed keys: wrong prefix, 31 or 33 characters, characters outside [A-Za-z0-9]', async () => {
    const random = randomPart(ctx.key);
    const malformed = [
      `svc_prod_${random}`,
      `sk_live_${random}`,
      `SVC_LIVE_${random}`,
      `svc_live${random}`,
      random,
      ctx.key.slice(0, -1),
      `${ctx.key}x`,
      `svc_live_${random.slice(0, 31)}-`,
      `svc_live_${random.slice(0, 31)}_`,
      `svc_live_${random.slice(0, 31)}=`,
      `svc_live_${random.slice(0, 16)}+${random.slice(17)}`,
    ];
    for (const key of malformed) {
      assertError(await bare(ctx, '/v1/codes', bearer(key)), 401, 'invalid_api_key');
      assertError(await bare(ctx, '/v1/codes', { 'x-api-key': key }), 401, 'invalid_api_key');
    }
  });

  test('any value that is not exactly an issued key is refused (property)', async () => {
    const printable = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.:~!'.split(''));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: printable, minLength: 1, maxLength: 48 }), fc.boolean(), async (value, asHeader) => {
        fc.pre(value !== ctx.key);
        const headers = asHeader ? { 'x-api-key': value } : bearer(value);
        const res = await bare(ctx, '/v1/codes', headers);
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().error.code, 'invalid_api_key');
      }),
      { numRuns: 150 },
    );
  });
});

describe('accepted forms (rules 2 and 3)', () => {
  test('Authorization: Bearer <key> works', async () => {
    assert.equal((await bare(ctx, '/v1/codes', bearer(ctx.key))).statusCode, 200);
  });

  test('the scheme name is case-insensitive, as HTTP defines it', async () => {
    assert.equal((await bare(ctx, '/v1/codes', { authorization: `bearer ${ctx.key}` })).statusCode, 200);
  });

  test('X-API-Key alone works', async () => {
    const res = await bare(ctx, '/v1/codes/demo:A', { 'x-api-key': ctx.key });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, 'demo:A');
  });

  test('the same key in both headers works', async () => {
    assert.equal((await bare(ctx, '/v1/codes', { ...bearer(ctx.key), 'x-api-key': ctx.key })).statusCode, 200);
  });

  test('a test key works like a live key on the same data', async () => {
    const { key } = await newKey(ctx, ctx.org, 'test');
    assert.match(key, /^svc_test_/);
    const live = await bare(ctx, '/v1/codes', bearer(ctx.key));
    const testRes = await bare(ctx, '/v1/codes', bearer(key));
    assert.equal(testRes.statusCode, 200);
    assert.deepEqual(testRes.json().data, live.json().data);
  });
});

describe('no other scheme exists (rule 1)', () => {
  test('Authorization with another scheme is 401, even when it carries a valid key', async () => {
    const values = [
      `Basic ${Buffer.from(`${ctx.key}:`).toString('base64')}`,
      `Basic ${ctx.key}`,
      `Token ${ctx.key}`,
      `Digest ${ctx.key}`,
      ctx.key,
      `Bearer ${ctx.key} extra`,
      `Bearer ${ctx.key},${ctx.key}`,
    ];
    for (const authorization of values) {
      assertError(await bare(ctx, '/v1/codes', { authorization }), 401, 'invalid_api_key');
    }
  });

  test('another scheme next to a valid X-API-Key is still 401', async () => {
    assertError(await bare(ctx, '/v1/codes', { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': ctx.key }), 401, 'invalid_api_key');
  });

  test('two different keys in the two headers are 401, whichever is valid', async () => {
    const other = await newKey(ctx);
    const pairs: [string, string][] = [
      [ctx.key, other.key],
      [ctx.key, unknownKey()],
      [unknownKey(), ctx.key],
      [ctx.key, ''],
    ];
    for (const [a, b] of pairs) {
      assertError(await bare(ctx, '/v1/codes', { ...bearer(a), 'x-api-key': b }), 401, 'invalid_api_key');
    }
  });
});

describe('keys stay server-side (rule 5)', () => {
  test('no CORS: a preflight is not answered with permission, and no response allows another origin', async () => {
    const origin = { origin: 'https://evil.example' };
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/codes',
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.notEqual(preflight.statusCode, 204);
    assert.ok(preflight.statusCode >= 400);
    for (const res of [preflight, await bare(ctx, '/v1/codes', { ...origin, ...bearer(ctx.key) }), await bare(ctx, '/v1/codes', origin)]) {
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.equal(res.headers['access-control-allow-headers'], undefined);
    }
  });
});

describe('key states: active → revoked (rules 6 and 7, state table)', () => {
  test('a created key is active at once', async () => {
    const { key } = await newKey(ctx);
    assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
  });

  test('revocation takes effect on the very next request, in both header forms, and stays', async () => {
    const { key, info } = await newKey(ctx);
    for (let i = 0; i < 3; i++) assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
    await revokeKey(ctx.deps.admin, info.id);
    for (let i = 0; i < 3; i++) {
      assertError(await bare(ctx, '/v1/codes', bearer(key)), 401, 'invalid_api_key');
      assertError(await bare(ctx, '/v1/codes/demo:A', { 'x-api-key': key }), 401, 'invalid_api_key');
    }
  });

  test('revoking again leaves the key revoked, and says it already was', async () => {
    const { key, info } = await newKey(ctx);
    const first = await revokeKey(ctx.deps.admin, info.id);
    ctx.clock.advance(60_000);
    const second = await revokeKey(ctx.deps.admin, info.id);
    assert.deepEqual([first.revokedNow, second.revokedNow], [true, false]);
    assert.equal(second.key.revokedAt, first.key.revokedAt, 'the time of the revocation stays');
    assertError(await bare(ctx, '/v1/codes', bearer(key)), 401, 'invalid_api_key');
  });

  test("a request refused with a revoked key is counted, but does not move the key's last use", async () => {
    const { key, info } = await newKey(ctx);
    ctx.clock.set('2026-03-15T12:00:30Z');
    assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
    await revokeKey(ctx.deps.admin, info.id);
    ctx.clock.set('2026-03-15T15:00:00Z');
    assertError(await bare(ctx, '/v1/codes', bearer(key)), 401, 'invalid_api_key');
    await ctx.deps.usage.flush();
    const stored = (await ctx.store.access.getKey(info.id))!;
    assert.equal(stored.lastUsedAt, '2026-03-15T12:00:30.000Z', 'last used moved for a refused request');
    const usage = await ctx.store.usage.usageByDay(ctx.org.id, '2026-03');
    assert.deepEqual(
      usage
        .filter((u) => u.keyId === info.id)
        .map((u) => [u.outcome, u.count])
        .sort(),
      [
        ['ok', 1],
        ['refused_auth', 1],
      ],
    );
  });

  test('revoking one key leaves the organisation’s other keys working', async () => {
    await revokedKey(ctx);
    assert.equal((await bare(ctx, '/v1/codes', bearer(ctx.key))).statusCode, 200);
  });

  test('the 401 for a revoked key reads the same as for an unknown key', async () => {
    const revoked = assertError(await bare(ctx, '/v1/codes', bearer(await revokedKey(ctx))), 401, 'invalid_api_key');
    const unknown = assertError(await bare(ctx, '/v1/codes', bearer(unknownKey())), 401, 'invalid_api_key');
    assert.equal(revoked.message, unknown.message);
  });
});
