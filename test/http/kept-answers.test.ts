/**
 * The page routes keep their whole answer (body and tag) under the request's
 * URL (src/http/kept-answers.ts): asked again, a page is the same answer, byte
 * for byte and header for header, without a query; changed data is never
 * answered from it; conditional requests, compression and HEAD are answered
 * from the kept tag as from a made one.
 */
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { entityTag } from '../../src/http/entity-tags.ts';
import { MAX_KEPT_URL } from '../../src/http/kept-answers.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

/** The headers that differ from one answer to the next whatever the body: the request's id and the limits' count. */
const PER_REQUEST = new Set(['request-id', 'ratelimit', 'ratelimit-policy', 'date', 'connection']);

function lasting(res: LightMyRequestResponse): [string, unknown][] {
  return Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name));
}

type PageReads = { codes: number; changes: number; navigation: number };

/** Counts the pages the routes ask the catalog for (the read cache and the store behind it). */
function countPageReads(ctx: TestContext): PageReads {
  const counts = { codes: 0, changes: 0, navigation: 0 };
  const store = ctx.deps.catalog;
  const pageCodes = store.pageCodes.bind(store);
  const pageChanges = store.pageChanges.bind(store);
  store.pageCodes = (q) => (counts.codes++, pageCodes(q));
  store.pageChanges = (q) => (counts.changes++, pageChanges(q));
  const nav = store.navigation;
  for (const name of ['pageCodesAsOf', 'pageChildren', 'pageDescendants', 'pageAncestors', 'pageRoots'] as const) {
    const read = nav[name].bind(nav) as (q: unknown) => Promise<unknown>;
    (nav as unknown as Record<string, unknown>)[name] = (q: unknown) => (counts.navigation++, read(q));
  }
  return counts;
}

describe('answers of the page routes kept whole', () => {
  let ctx: TestContext;
  let reads: PageReads;
  before(async () => {
    ctx = await createTestContext({ env: { READ_CACHE_MB: '4' } });
    // Two roots (K00, K28); K01–K27 children of K00; K29 a child of K01, so that it has two ancestors.
    const parentOf = (i: number) => (i === 0 || i === 28 ? '' : i === 29 ? 'K01' : 'K00');
    const rows = Array.from({ length: 30 }, (_, i) => ({
      code: `K${String(i).padStart(2, '0')}`,
      display: `Kept ${i} ${'y'.repeat(60)}`,
      parents: parentOf(i),
    }));
    await ctx.importRows(rows, { system: 'kept', release: 'r1', effectiveDate: '2024-01-01' });
    await ctx.importRows([{ code: 'K03', display: 'Kept 3, revised', parents: 'K00' }], {
      system: 'kept',
      release: 'r1b',
      effectiveDate: '2024-01-15',
      mode: 'delta',
    });
    reads = countPageReads(ctx);
  });
  after(() => ctx.close());

  for (const [name, first] of [
    ['a first page of codes', '/v1/codes?system=kept&limit=10'],
    ['a page of changes', '/v1/changes?system=kept&limit=10'],
    ['a page of one code’s changes', '/v1/codes/kept:K03/changes?limit=1'],
    ['a page of codes as of a date', '/v1/codes?system=kept&as_of=2024-01-10&limit=10'],
    ['a page of a code’s children', '/v1/codes/kept:K00/children?limit=10'],
    ['a page of a code’s descendants', '/v1/codes/kept:K00/descendants?limit=10'],
    ['a page of a code’s ancestors', '/v1/codes/kept:K29/ancestors?limit=1'],
    ['a page of a system’s roots', '/v1/systems/kept/roots?limit=1'],
  ] as const) {
    test(`${name}, and the page its cursor leads to: asked again, the answer first made, without a query`, async () => {
      const made = await ctx.get(first);
      assert.equal(made.statusCode, 200, made.body);
      const cursor = (JSON.parse(made.body) as { pagination: { next_cursor?: string } }).pagination.next_cursor;
      assert.ok(cursor !== undefined, 'a page with a next one');
      const next = `${first}&cursor=${cursor}`;
      const readsBefore = { ...reads };
      const fresh = [made, await ctx.get(next)];
      assert.notDeepEqual(reads, readsBefore, 'the page its cursor leads to was made from the store');
      for (const [i, url] of [first, next].entries()) {
        const before = { ...reads };
        const again = await ctx.get(url);
        assert.deepEqual(reads, before, `${url}: the page was asked for again`);
        assert.equal(again.statusCode, 200);
        assert.equal(again.body, fresh[i]!.body);
        assert.deepEqual(lasting(again), lasting(fresh[i]!));
        assert.equal(again.headers.etag, entityTag(Buffer.from(again.body)), 'the tag is the body’s');
      }
    });
  }

  test('If-None-Match, compression and HEAD are answered from the kept tag as from a made one', async () => {
    const url = '/v1/codes?system=kept&limit=20';
    const made = await ctx.get(url);
    const tag = made.headers.etag as string;
    const before = { ...reads };
    const notModified = await ctx.get(url, { 'if-none-match': tag });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.body, '');
    for (const coding of ['br', 'gzip'] as const) {
      const res = await ctx.get(url, { 'accept-encoding': coding });
      assert.equal(res.headers['content-encoding'], coding);
      assert.equal(res.headers.etag, `W/${tag}`);
      const body = coding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
      assert.equal(body.toString('utf8'), made.body);
    }
    const head = await ctx.request({ method: 'HEAD', url });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers.etag, tag);
    assert.equal(head.headers['content-length'], made.headers['content-length']);
    assert.deepEqual(reads, before, 'answered without a query');
  });

  test('after an import, the very next request answers the new data', async () => {
    const url = '/v1/codes?system=kept&limit=3';
    const first = await ctx.get(url);
    await ctx.get(url);
    await ctx.importRows([{ code: 'K00', display: 'Kept again' }], { system: 'kept', release: 'r2', effectiveDate: '2024-02-01', mode: 'delta' });
    const after = await ctx.get(url);
    assert.notEqual(after.headers.etag, first.headers.etag);
    assert.equal((JSON.parse(after.body) as { data: { display: string }[] }).data[0]!.display, 'Kept again');
    const changes = await ctx.get('/v1/changes?system=kept&limit=200');
    assert.equal((JSON.parse(changes.body) as { data: unknown[] }).data.length, 32);
  });

  test('a refused request keeps nothing: a cursor that does not verify is refused again, and nothing is kept', async () => {
    const url = '/v1/codes?system=kept&cursor=bm90LWEtY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA';
    const entries = ctx.deps.catalog.stats().entries;
    for (let i = 0; i < 2; i++) {
      const res = await ctx.get(url);
      assert.equal(res.statusCode, 400);
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'invalid_cursor');
    }
    assert.equal(ctx.deps.catalog.stats().entries, entries);
  });

  test('a 404 keeps nothing: an unknown code’s hierarchy, an unknown system’s roots', async () => {
    const entries = ctx.deps.catalog.stats().entries;
    for (const url of ['/v1/codes/kept:NOPE/children', '/v1/codes/kept:NOPE/ancestors', '/v1/systems/nope/roots']) {
      for (let i = 0; i < 2; i++) assert.equal((await ctx.get(url)).statusCode, 404, url);
    }
    assert.equal(ctx.deps.catalog.stats().entries, entries);
  });

  test(`a URL longer than ${MAX_KEPT_URL} characters is answered, and not kept`, async () => {
    // Long but valid: a filter's value of 200 characters, each percent-encoded.
    const padded = `/v1/changes?system=kept&release=${'%72'.repeat(200)}`;
    const first = await ctx.get(padded);
    assert.equal(first.statusCode, 200, first.body);
    const before = { ...reads };
    const again = await ctx.get(padded);
    assert.equal(again.body, first.body);
    assert.equal(reads.changes, before.changes + 1, 'read from the store again');
  });
});
