/**
 * Compression of /v1 answers: br or gzip as Accept-Encoding asks (weights,
 * identity, q=0), bodies that decode to exactly the identity body, Vary on
 * every answer large enough to compress, none for small bodies, HEAD, 304 or
 * errors; over a real socket too, where Content-Length and the bytes matter.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { chooseCoding } from '../../src/http/accept-encoding.ts';
import { CompressedCache } from '../../src/http/compressed-cache.ts';
import { entityTag } from '../../src/http/entity-tags.ts';
import { COMPRESSION_THRESHOLD } from '../../src/http/representations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare } from '../access/helpers.ts';

let ctx: TestContext;
let port: number;
const PAGE = '/v1/codes?system=zip&limit=50';
before(async () => {
  ctx = await createTestContext();
  const rows = Array.from({ length: 60 }, (_, i) => ({
    code: `Z${String(i).padStart(3, '0')}`,
    display: `Zipped code number ${i}, with a display long enough to make a page of several kilobytes`,
    definition: `Definition of code ${i}.`,
  }));
  await ctx.importRows(rows, { system: 'zip', release: 'r1', effectiveDate: '2024-01-01' });
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
after(() => ctx.close());

test('Accept-Encoding is read with its weights, identity and *', () => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ['', null],
    ['br, gzip', 'br'],
    ['gzip, br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['br;q=0, gzip;q=0, identity;q=0', null],
    ['*', 'br'],
    ['*;q=0.5, br;q=0.2', 'gzip'],
    ['*;q=0', null],
    ['identity', null],
    ['identity, gzip;q=0.5', null],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['deflate, compress', null],
    ['br;q=2, gzip', 'gzip'], // a malformed weight drops its member
    ['br;q=abc', null],
    ['gzip ; q=0.8 , br ; q=0.9', 'br'],
  ];
  for (const [field, expected] of cases) assert.equal(chooseCoding(field), expected, `Accept-Encoding: ${field}`);
});

test('br and gzip bodies decode to exactly the identity body, with the weak form of its tag', async () => {
  const identity = await ctx.get(PAGE);
  assert.equal(identity.headers['content-encoding'], undefined);
  assert.equal(identity.headers.vary, 'Accept-Encoding');
  const tag = identity.headers.etag as string;
  assert.ok(identity.rawPayload.length > 5000, `page of ${identity.rawPayload.length} bytes`);
  for (const [accept, coding, decode] of [
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br', 'br', brotliDecompressSync],
  ] as const) {
    for (let round = 0; round < 2; round++) {
      // The second round is served from the compressed cache: the same bytes.
      const res = await ctx.get(PAGE, { 'accept-encoding': accept });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], coding);
      assert.equal(res.headers.vary, 'Accept-Encoding');
      assert.equal(res.headers.etag, `W/${tag}`);
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
      assert.ok(res.rawPayload.length * 4 < identity.rawPayload.length, `${coding}: ${res.rawPayload.length} of ${identity.rawPayload.length} bytes`);
      assert.deepEqual(decode(res.rawPayload), identity.rawPayload);
    }
  }
  // The weak tag of a compressed answer revalidates, whatever the coding asked now.
  const notModified = await ctx.get(PAGE, { 'accept-encoding': 'gzip', 'if-none-match': `W/${tag}` });
  assert.equal(notModified.statusCode, 304);
  assert.equal(notModified.headers['content-encoding'], undefined);
  assert.equal(notModified.headers.vary, 'Accept-Encoding');
  assert.equal(notModified.headers.etag, `W/${tag}`);
  assert.equal(notModified.rawPayload.length, 0);
});

test('q=0 and identity are honoured; HEAD and small bodies are never compressed', async () => {
  const refused = await ctx.get(PAGE, { 'accept-encoding': 'br;q=0, gzip;q=0' });
  assert.equal(refused.headers['content-encoding'], undefined);
  assert.equal(refused.headers.vary, 'Accept-Encoding');
  assert.doesNotThrow(() => JSON.parse(refused.body));
  const preferIdentity = await ctx.get(PAGE, { 'accept-encoding': 'identity, gzip;q=0.1' });
  assert.equal(preferIdentity.headers['content-encoding'], undefined);
  const onlyGzip = await ctx.get(PAGE, { 'accept-encoding': 'br;q=0, *' });
  assert.equal(onlyGzip.headers['content-encoding'], 'gzip');

  const head = await ctx.request({ method: 'HEAD', url: PAGE, headers: { 'accept-encoding': 'br, gzip' } });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-encoding'], undefined);
  assert.equal(Number(head.headers['content-length']), Buffer.byteLength(refused.body));

  const record = await ctx.get('/v1/codes/zip:Z001', { 'accept-encoding': 'br, gzip' });
  assert.ok(record.rawPayload.length < COMPRESSION_THRESHOLD);
  assert.equal(record.headers['content-encoding'], undefined);
  assert.equal(record.headers.vary, undefined);
  assert.ok(record.headers.etag);
});

test('a batch of records (POST) is compressed as a GET would be, without a tag; a small one is not', async () => {
  const ids = Array.from({ length: 40 }, (_, i) => `zip:Z${String(i).padStart(3, '0')}`);
  const batch = (accept: string | undefined, body = { ids }) =>
    ctx.request({
      method: 'POST',
      url: '/v1/codes/batch',
      headers: { 'content-type': 'application/json', ...(accept ? { 'accept-encoding': accept } : {}) },
      payload: body,
    });
  const identity = await batch(undefined);
  assert.equal(identity.statusCode, 200, identity.body);
  assert.equal(identity.headers['content-encoding'], undefined);
  assert.equal(identity.headers.vary, 'Accept-Encoding');
  assert.ok(identity.rawPayload.length > 2000, `batch of ${identity.rawPayload.length} bytes`);
  for (const [accept, coding, decode] of [
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
  ] as const) {
    const res = await batch(accept);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], coding);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(res.headers.etag, undefined, 'a POST answer carries no tag');
    assert.ok(res.rawPayload.length * 3 < identity.rawPayload.length, `${coding}: ${res.rawPayload.length} of ${identity.rawPayload.length} bytes`);
    assert.deepEqual(decode(res.rawPayload), identity.rawPayload);
  }
  const small = await batch('br, gzip', { ids: ['zip:Z001'] });
  assert.ok(small.rawPayload.length < COMPRESSION_THRESHOLD);
  assert.equal(small.headers['content-encoding'], undefined);
  assert.equal(small.headers.vary, undefined);
});

test('errors stay plain JSON whatever the client accepts', async () => {
  const missing = await ctx.get('/v1/codes/zip:NOPE', { 'accept-encoding': 'br, gzip' });
  assertError(missing, 404, 'code_not_found');
  assert.equal(missing.headers['content-encoding'], undefined);
  const unauthorized = await bare(ctx, PAGE, { 'accept-encoding': 'br, gzip' });
  assertError(unauthorized, 401, 'invalid_api_key');
  assert.equal(unauthorized.headers['content-encoding'], undefined);
});

function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { ...ctx.authHeaders, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a tag is the digest of the exact bytes sent, small or large, ASCII or not, the first time and the next', async () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ code: `S${i}`, display: `São Tomé, Müller and 東京 number ${i}` }));
  await ctx.importRows(rows, { system: 'accents', release: 'r1', effectiveDate: '2024-01-01' });
  const record = await get('/v1/codes/accents:S1', {});
  assert.ok(record.body.length < COMPRESSION_THRESHOLD && record.body.toString('utf8').includes('São Tomé'));
  assert.equal(record.headers.etag, entityTag(record.body));
  const page = '/v1/codes?system=accents&limit=30';
  for (let i = 0; i < 2; i++) {
    const identity = await get(page, {});
    assert.ok(identity.body.length >= COMPRESSION_THRESHOLD && identity.body.toString('utf8').includes('東京'));
    assert.equal(identity.headers.etag, entityTag(identity.body), `request ${i + 1}`);
    assert.equal(Number(identity.headers['content-length']), identity.body.length);
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const compressed = await get(page, { 'accept-encoding': accept });
      assert.equal(compressed.headers.etag, `W/${entityTag(identity.body)}`, `request ${i + 1}, ${accept}`);
      assert.deepEqual(decode(compressed.body), identity.body);
    }
  }
});

test('over a real socket: the compressed bytes, their length, Vary, and an empty 304', async () => {
  const identity = await get(PAGE, {});
  assert.equal(identity.status, 200);
  for (const [accept, decode] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    const res = await get(PAGE, { 'accept-encoding': accept });
    assert.equal(res.headers['content-encoding'], accept);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(Number(res.headers['content-length']), res.body.length);
    assert.deepEqual(decode(res.body), identity.body);
  }
  const notModified = await get(PAGE, { 'accept-encoding': 'br', 'if-none-match': String(identity.headers.etag) });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body.length, 0);
  assert.equal(notModified.headers['content-length'], undefined);
  // fetch() asks for compression itself and decodes: the client sees the identity body.
  const fetched = await fetch(`http://127.0.0.1:${port}${PAGE}`, { headers: ctx.authHeaders });
  assert.equal(await fetched.text(), identity.body.toString('utf8'));
});

test('compressed forms are kept per tag and coding, as copies of what was handed in', () => {
  const cache = new CompressedCache(1024 * 1024);
  const form = Buffer.from('compressed');
  cache.set('"tag1"', 'br', form);
  form.fill(0);
  assert.deepEqual(cache.get('"tag1"', 'br'), Buffer.from('compressed'));
  assert.equal(cache.get('"tag1"', 'gzip'), undefined);
  assert.equal(cache.get('"tag2"', 'br'), undefined);
  const none = new CompressedCache(0);
  none.set('"tag1"', 'br', Buffer.from('compressed'));
  assert.equal(none.get('"tag1"', 'br'), undefined, 'a bound of 0 keeps nothing');
});

test('a large page changed by an import gets a new tag and new compressed bytes', async () => {
  const before = await ctx.get(PAGE, { 'accept-encoding': 'br' });
  await ctx.importRows([{ code: 'Z001', display: 'Zipped code number 1, revised' }], { system: 'zip', release: 'r2', effectiveDate: '2024-02-01' });
  const after = await ctx.get(PAGE, { 'accept-encoding': 'br', 'if-none-match': String(before.headers.etag) });
  assert.equal(after.statusCode, 200);
  assert.notEqual(after.headers.etag, before.headers.etag);
  const text = brotliDecompressSync(after.rawPayload).toString('utf8');
  assert.match(text, /Zipped code number 1, revised/);
  assert.equal(text, (await ctx.get(PAGE)).body);
});

test('COMPRESSED_CACHE_MB bounds the cache: 8 MiB by default, 0 to keep nothing, refused outside 0–4096', () => {
  assert.equal(loadConfig({}).compressedCacheBytes, 8 * 1024 * 1024);
  assert.equal(loadConfig({ COMPRESSED_CACHE_MB: '0' }).compressedCacheBytes, 0);
  for (const bad of ['-1', '4097', 'lots', '1.5']) {
    assert.throws(
      () => loadConfig({ COMPRESSED_CACHE_MB: bad }),
      (e: unknown) => e instanceof ConfigError && /^COMPRESSED_CACHE_MB: /.test(e.message),
      bad,
    );
  }
});
