/**
 * Conditional requests on /v1: every GET answer carries an entity tag, the
 * same while the body is the same and another once an import changes it;
 * If-None-Match (one tag, a list, weak forms, *) gets 304 with no body; a 304
 * is a request like a 200 for the limits and usage, and the order of checks
 * still holds before it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { usageReport } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { documentOf, operationsOf } from '../helpers/openapi.ts';
import { apiOperations, seedRouteFixture, sendOperation } from '../helpers/routes.ts';
import { assertError, bare, bearer, orgOnPlan, rateLimit, unknownKey } from '../access/helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await seedRouteFixture(ctx);
});
after(() => ctx.close());

const getOperations = () => apiOperations(ctx.app).filter((op) => op.method === 'GET');

test('every GET operation documents ETag on its 200 and a 304 without a body', () => {
  const gets = operationsOf(documentOf(ctx.app)).filter((o) => o.method === 'GET');
  assert.ok(gets.length >= 11, `only ${gets.length} GET operations documented`);
  for (const { path, op } of gets) {
    assert.ok(op.responses['200']?.headers?.ETag, `${path}: 200 documents no ETag`);
    const notModified = op.responses['304'];
    assert.ok(notModified, `${path}: no 304 documented`);
    assert.equal(notModified.content, undefined, `${path}: the 304 has a body`);
    assert.ok(notModified.headers?.ETag, `${path}: 304 documents no ETag`);
  }
  // A POST is not a conditional read.
  for (const { path, op } of operationsOf(documentOf(ctx.app)).filter((o) => o.method === 'POST')) assert.equal(op.responses['304'], undefined, path);
});

test('every GET route answers with a tag, the same tag twice, and 304 with no body for it', async () => {
  for (const op of getOperations()) {
    const first = await sendOperation(ctx, op, ctx.authHeaders);
    assert.equal(first.statusCode, 200, `${op.operationId}: ${first.body}`);
    const tag = first.headers.etag as string;
    assert.match(tag, /^"[A-Za-z0-9_-]{22}"$/, `${op.operationId}: ETag ${tag}`);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    const again = await sendOperation(ctx, op, ctx.authHeaders);
    assert.equal(again.headers.etag, tag, `${op.operationId}: the same body got another tag`);
    assert.equal(again.body, first.body);
    const notModified = await sendOperation(ctx, op, { ...ctx.authHeaders, 'if-none-match': tag });
    assert.equal(notModified.statusCode, 304, op.operationId);
    assert.equal(notModified.body, '');
    assert.equal(notModified.headers.etag, tag);
    assert.equal(notModified.headers['content-type'], undefined);
    assert.equal(notModified.headers['content-length'], undefined);
    assert.ok(notModified.headers.ratelimit, `${op.operationId}: a 304 without RateLimit`);
  }
});

test('If-None-Match: lists, weak tags and * match; another tag gets the whole answer', async () => {
  const url = '/v1/codes/demo:A';
  const tag = (await ctx.get(url)).headers.etag as string;
  const other = '"AAAAAAAAAAAAAAAAAAAAAA"';
  const cases: [string, number][] = [
    [tag, 304],
    [`W/${tag}`, 304],
    [`${other}, ${tag}`, 304],
    [`${other},W/${tag} , "x"`, 304],
    ['*', 304],
    [other, 200],
    [`W/${other}`, 200],
    [tag.slice(1, -1), 200], // unquoted: not an entity tag
    ['', 200],
  ];
  for (const [ifNoneMatch, status] of cases) {
    const res = await ctx.get(url, { 'if-none-match': ifNoneMatch });
    assert.equal(res.statusCode, status, `If-None-Match: ${ifNoneMatch}`);
    assert.equal(res.headers.etag, tag);
  }
  // HEAD is conditional too; its 304 has no body either.
  const head = await ctx.request({ method: 'HEAD', url, headers: { 'if-none-match': tag } });
  assert.equal(head.statusCode, 304);
  assert.equal(head.body, '');
});

test('the tag changes when an import changes the body, and differs between different answers', async () => {
  await ctx.importRows([{ code: 'T', display: 'Tango' }], { system: 'tags', release: 'r1', effectiveDate: '2024-01-01' });
  const before1 = await ctx.get('/v1/codes/tags:T');
  const page1 = await ctx.get('/v1/codes?system=tags');
  assert.notEqual(before1.headers.etag, page1.headers.etag);
  await ctx.importRows([{ code: 'T', display: 'Tango, revised' }], { system: 'tags', release: 'r2', effectiveDate: '2024-02-01' });
  const after1 = await ctx.get('/v1/codes/tags:T', { 'if-none-match': before1.headers.etag as string });
  assert.equal(after1.statusCode, 200, 'a changed record answered 304');
  assert.notEqual(after1.headers.etag, before1.headers.etag);
  assert.equal(after1.json<{ display: string }>().display, 'Tango, revised');
  const page2 = await ctx.get('/v1/codes?system=tags', { 'if-none-match': page1.headers.etag as string });
  assert.equal(page2.statusCode, 200, 'a changed page answered 304');
  assert.notEqual(page2.headers.etag, page1.headers.etag);
  // Unchanged records keep their tag across the import.
  const a = await ctx.get('/v1/codes/demo:A');
  assert.equal((await ctx.get('/v1/codes/demo:A', { 'if-none-match': a.headers.etag as string })).statusCode, 304);
});

test('a 304 counts toward the minute and the month like a 200, and is refused 429 over the limit', async () => {
  ctx.clock.set('2026-03-15T12:00:30Z');
  const o = await orgOnPlan(ctx, 'etag-limits', { name: 'etag-limits', ratePerMinute: 3, monthlyQuota: 100 });
  const ok = await bare(ctx, '/v1/codes/demo:A', o.headers);
  const tag = ok.headers.etag as string;
  const conditional = { ...o.headers, 'if-none-match': tag };
  const second = await bare(ctx, '/v1/codes/demo:A', conditional);
  assert.equal(second.statusCode, 304);
  assert.deepEqual(rateLimit(second).minute.r, 1);
  assert.equal(rateLimit(second).month?.r, 98);
  assert.equal((await bare(ctx, '/v1/codes/demo:A', conditional)).statusCode, 304);
  const refused = await bare(ctx, '/v1/codes/demo:A', conditional);
  assertError(refused, 429, 'rate_limit_exceeded');
  assert.equal(refused.headers.etag, undefined, 'an error carries no tag');
  await ctx.deps.limiter.flush();
  await ctx.deps.usage.flush();
  const report = await usageReport(ctx.deps.admin, o.org, '2026-03');
  assert.equal(report.counted, 3);
  assert.equal(report.byOutcome.ok, 3, JSON.stringify(report.byOutcome));
});

test('order of checks: a bad or missing key is 401 whatever If-None-Match says; an error is never 304', async () => {
  const tag = (await ctx.get('/v1/codes/demo:A')).headers.etag as string;
  for (const headers of [{}, bearer(unknownKey())] as Record<string, string>[]) {
    for (const ifNoneMatch of [tag, '*']) {
      const res = await bare(ctx, '/v1/codes/demo:A', { ...headers, 'if-none-match': ifNoneMatch });
      assertError(res, 401, 'invalid_api_key');
    }
  }
  const missing = await ctx.get('/v1/codes/demo:NOPE', { 'if-none-match': '*' });
  assertError(missing, 404, 'code_not_found');
  const badParam = await ctx.get('/v1/codes?limit=0', { 'if-none-match': '*' });
  assertError(badParam, 400, 'invalid_parameter');
});
