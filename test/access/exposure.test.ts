/**
 * A live key seen in a query string, a body field or a Referer is marked
 * exposed (an entry and an audit line naming time, address and route, never
 * the key), and revoked at once when the organisation asked for that. The
 * answer to the request that leaked it says nothing about whether it was valid.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOrg, revokeKey } from '../../src/services/access/admin.ts';
import { createExpiringKey, updateOrgSettings } from '../../src/services/access/key-life.ts';
import { exposureWarnings } from '../../src/services/access/exposure.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare, bearer, randomPart, unknownKey } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(async () => ctx.close());

async function orgWithKey(slug: string) {
  const org = await createOrg(ctx.deps.admin, slug, 'test-all');
  const { key, info } = await createExpiringKey(ctx.deps.admin, org, { mode: 'live', name: `${slug} server`, expiresAt: null }, 'test');
  return { org, key, info };
}

const withoutRequestId = (body: string) => body.replace(/req_[0-9a-f]{32}/, 'req_');

describe('exposed keys', () => {
  test('in a query string: the same 400 as for an unknown key, and the key is marked exposed, with an audit line that holds no key', async () => {
    const { org, key, info } = await orgWithKey('leaky');
    const valid = await bare(ctx, `/v1/codes?limit=1&api_key=${key}`);
    const unknown = await bare(ctx, `/v1/codes?limit=1&api_key=${unknownKey()}`);
    assertError(valid, 400, 'api_key_in_query');
    assert.equal(withoutRequestId(valid.body), withoutRequestId(unknown.body), 'the answer does not tell a valid key from an unknown one');

    const [exposure] = await ctx.store.keyLife.listExposures(org.id, 10);
    assert.equal(exposure!.keyId, info.id);
    assert.equal(exposure!.via, 'query');
    assert.equal(exposure!.route, 'GET /v1/codes');
    assert.equal(exposure!.address, '127.0.0.1');
    assert.equal(exposure!.revoked, false);
    const audit = (await ctx.store.dashboard.listAudit(org.id, 10)).filter((e) => e.action === 'key.exposed');
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.target, `leaky server (${info.displayPrefix}…, live) sent in a URL from 127.0.0.1 on GET /v1/codes`);
    assert.ok(!audit[0]!.target.includes(randomPart(key)));
    assert.equal((await bare(ctx, '/v1/codes?limit=1', bearer(key))).statusCode, 200, 'the setting is off by default: the key still works');

    const warnings = await exposureWarnings(ctx.deps.admin, org);
    assert.deepEqual(
      warnings.map((w) => w.key.id),
      [info.id],
      'the dashboard banner names it',
    );
    await bare(ctx, `/v1/codes?key=${encodeURIComponent(key)}`);
    assert.equal(
      (await ctx.store.dashboard.listAudit(org.id, 10)).filter((e) => e.action === 'key.exposed').length,
      1,
      'a repeat within the minute adds nothing',
    );
    await revokeKey(ctx.deps.admin, info.id);
    assert.deepEqual(await exposureWarnings(ctx.deps.admin, org), [], 'the banner goes once the key no longer works');
  });

  test('in a Referer header and in a request body field: marked too, and the request is answered as usual', async () => {
    const { org, key } = await orgWithKey('referrer');
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/v1/codes?limit=1',
      headers: { ...ctx.authHeaders, referer: `https://shop.example/checkout?apikey=${key}` },
    });
    assert.equal(page.statusCode, 200);
    // A form field counts the same as a JSON one (the /v1 batch's body: below).
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=someone%40example.com&password=${key}`,
    });
    assert.ok(form.statusCode < 500, String(form.statusCode));
    const vias = (await ctx.store.keyLife.listExposures(org.id, 10)).map((e) => `${e.via} ${e.route}`);
    assert.deepEqual(vias, ['body POST /dashboard/login', 'referer GET /v1/codes']);
  });

  test('in the body of a request the route refuses (an unknown field, a bad value, the wrong type): marked all the same', async () => {
    const marked: string[] = [];
    for (const [slug, type, payload, status] of [
      ['refused-field', 'application/json', (key: string) => JSON.stringify({ ids: ['demo:A'], note: key }), 400],
      ['refused-value', 'application/json', (key: string) => JSON.stringify({ ids: ['demo:A'], as_of: key }), 400],
      ['refused-type', 'text/plain', (key: string) => key, 415],
      ['accepted', 'application/json', (key: string) => JSON.stringify({ ids: [key] }), 200],
    ] as const) {
      const { org, key } = await orgWithKey(slug);
      const answer = await ctx.app.inject({
        method: 'POST',
        url: '/v1/codes/batch',
        headers: { ...ctx.authHeaders, 'content-type': type },
        payload: payload(key),
      });
      assert.equal(answer.statusCode, status, `${slug}: ${answer.body}`);
      marked.push(...(await ctx.store.keyLife.listExposures(org.id, 10)).map((e) => `${slug}: ${e.via} ${e.route}`));
    }
    assert.deepEqual(marked, [
      'refused-field: body POST /v1/codes/batch',
      'refused-value: body POST /v1/codes/batch',
      'refused-type: body POST /v1/codes/batch',
      'accepted: body POST /v1/codes/batch',
    ]);
  });

  test('in the body of a request no route answers, at the root and under /dashboard: marked too, with the 404 as usual', async () => {
    const marked: string[] = [];
    for (const [slug, url, type, payload] of [
      ['lost-json', '/nope', 'application/json', (key: string) => JSON.stringify({ token: key })],
      ['lost-form', '/dashboard/nope', 'application/x-www-form-urlencoded', (key: string) => `password=${key}`],
    ] as const) {
      const { org, key } = await orgWithKey(slug);
      const answer = await ctx.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload: payload(key) });
      assert.equal(answer.statusCode, 404, url);
      marked.push(...(await ctx.store.keyLife.listExposures(org.id, 10)).map((e) => `${e.via} ${e.route}`));
    }
    assert.deepEqual(marked, ['body POST /nope', 'body POST /dashboard/nope']);
  });

  test('only live keys: unknown, revoked and expired keys mark nothing', async () => {
    const { org, key, info } = await orgWithKey('quiet');
    const ends = new Date(ctx.clock.ms + 1000).toISOString();
    const brief = await createExpiringKey(ctx.deps.admin, org, { mode: 'live', name: 'brief', expiresAt: ends }, 'test');
    await revokeKey(ctx.deps.admin, info.id);
    ctx.clock.advance(1000);
    for (const k of [key, brief.key, unknownKey()]) assertError(await bare(ctx, `/v1/codes?k=${k}`), 400, 'api_key_in_query');
    assert.deepEqual(await ctx.store.keyLife.listExposures(org.id, 10), []);
  });

  test("with the organisation's setting on, an exposed key is revoked at once, and the audit log says why", async () => {
    const { org, key, info } = await orgWithKey('strict');
    await updateOrgSettings(ctx.deps.admin, org, { autoRevokeExposed: true, requestLogDays: 7, requestLogMax: 10_000 }, 'admin@strict.example');
    assert.equal((await bare(ctx, '/v1/codes?limit=1', bearer(key))).statusCode, 200, 'cached before the leak');
    assertError(await bare(ctx, `/v1/codes?api_key=${key}`), 400, 'api_key_in_query');
    assertError(await bare(ctx, '/v1/codes?limit=1', bearer(key)), 401, 'invalid_api_key');
    const [exposure] = await ctx.store.keyLife.listExposures(org.id, 10);
    assert.equal(exposure!.revoked, true);
    const actions = (await ctx.store.dashboard.listAudit(org.id, 10)).map((e) => `${e.actor} ${e.action}`);
    assert.ok(
      actions.includes('exposure key.revoked') && actions.includes('exposure key.exposed') && actions.includes('admin@strict.example settings.changed'),
      actions.join(', '),
    );
    // One revocation, by the exposure and saying why: not a second one in the operator's name.
    assert.deepEqual(
      actions.filter((a) => a.endsWith(' key.revoked')),
      ['exposure key.revoked'],
    );
    assert.deepEqual(actions.slice(0, 2), ['exposure key.revoked', 'exposure key.exposed'], 'newest first: exposed, then revoked');
    assert.equal((await ctx.store.access.getKey(info.id))!.revokedAt !== null, true);
  });

  test('no key reaches the database files, whatever was exposed, rolled or logged', async () => {
    const { key } = await orgWithKey('files');
    await bare(ctx, `/v1/codes?api_key=${key}`);
    await ctx.app.inject({ method: 'GET', url: `/v1/codes/${key}`, headers: ctx.authHeaders });
    await ctx.deps.requestLog.flush();
    await ctx.deps.usage.flush();
    const files = readdirSync(ctx.dir).filter((f) => f.startsWith('codebook.db'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const bytes = readFileSync(join(ctx.dir, f)).toString('latin1');
      for (const k of [key, ctx.key]) assert.ok(!bytes.includes(randomPart(k)), `${f} holds a key`);
    }
  });
});
