/**
 * The request log: every /v1 request of a known key, found by its Request-Id
 * in one step, filtered by key and status class, paged newest first, kept for
 * the organisation's days or count, with key-shaped values redacted; recorded
 * in bounded memory off the request's path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrg } from '../../src/services/access/admin.ts';
import { createExpiringKey, updateOrgSettings } from '../../src/services/access/key-life.ts';
import { loggedPath, MAX_PENDING, pageRequestLog, RequestLogRecorder } from '../../src/services/access/request-log.ts';
import { EVENT_LOOP_APPEND_SLICE } from '../../src/domain/request-batch.ts';
import { createDemoContext, type TestContext } from '../helpers/context.ts';
import { bare, bearer, randomPart } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createDemoContext();
});
after(async () => ctx.close());

async function customer(slug: string) {
  const org = await createOrg(ctx.deps.admin, slug, 'test-all');
  const live = await createExpiringKey(ctx.deps.admin, org, { mode: 'live', name: 'server', expiresAt: null }, 'test');
  const testKey = await createExpiringKey(ctx.deps.admin, org, { mode: 'test', name: 'ci', expiresAt: null }, 'test');
  return { org, live, test: testKey };
}

/** An entry as a request of the test organisation records it. */
function pendingEntry(requestId: string) {
  return {
    orgId: ctx.org.id,
    keyId: 'key_x',
    keyPrefix: 'svc_live_xxxx',
    atMs: ctx.clock.ms,
    method: 'GET',
    url: '/v1/codes',
    status: 200,
    errorCode: null,
    durationMs: 1,
    requestId,
  };
}

describe('request log', () => {
  test('each request with its time, key prefix, method, path and query, status, error code, duration and Request-Id; found by Request-Id', async () => {
    const { org, live, test: t } = await customer('logged');
    const ok = await bare(ctx, '/v1/codes?limit=1&system=demo', bearer(live.key));
    const missing = await bare(ctx, '/v1/codes/demo:Z', bearer(t.key));
    const bad = await bare(ctx, '/v1/codes?limit=0', bearer(live.key));
    // Logged as sent, though it is routed with its % escaped (unroutable-path.ts).
    const undecodable = await bare(ctx, '/v1/codes/demo:%FF/changes?limit=1', bearer(live.key));
    assert.deepEqual([ok.statusCode, missing.statusCode, bad.statusCode, undecodable.statusCode], [200, 404, 400, 400]);
    await ctx.deps.requestLog.flush();

    const page = await pageRequestLog(ctx.deps.admin, org, {});
    assert.deepEqual(
      page.entries.map((e) => [e.method, e.path, e.status, e.errorCode, e.keyPrefix, e.requestId]),
      [
        ['GET', '/v1/codes/demo:%FF/changes?limit=1', 400, 'invalid_parameter', live.info.displayPrefix, undecodable.headers['request-id']],
        ['GET', '/v1/codes?limit=0', 400, 'invalid_parameter', live.info.displayPrefix, bad.headers['request-id']],
        ['GET', '/v1/codes/demo:Z', 404, 'code_not_found', t.info.displayPrefix, missing.headers['request-id']],
        ['GET', '/v1/codes?limit=1&system=demo', 200, null, live.info.displayPrefix, ok.headers['request-id']],
      ],
    );
    assert.ok(page.entries.every((e) => e.durationMs >= 0 && e.at === new Date(ctx.clock.ms).toISOString()));
    const quoted = await pageRequestLog(ctx.deps.admin, org, { requestId: ` ${String(missing.headers['request-id'])} ` });
    assert.deepEqual(
      quoted.entries.map((e) => e.status),
      [404],
      'a quoted Request-Id finds its request in one step',
    );
    assert.deepEqual(
      (await pageRequestLog(ctx.deps.admin, org, { keyId: t.info.id })).entries.map((e) => e.status),
      [404],
    );
    assert.deepEqual(
      (await pageRequestLog(ctx.deps.admin, org, { status: '2xx' })).entries.map((e) => e.status),
      [200],
    );
    await assert.rejects(pageRequestLog(ctx.deps.admin, org, { status: '3xx' }), /2xx, 4xx or 5xx/);
    await assert.rejects(pageRequestLog(ctx.deps.admin, org, { cursor: 'rl1.x' }), /not valid/);
    const elsewhere = await customer('elsewhere');
    assert.deepEqual(
      (await pageRequestLog(ctx.deps.admin, elsewhere.org, { requestId: String(ok.headers['request-id']) })).entries,
      [],
      "not in another organisation's log",
    );
  });

  test('paged newest first with cursors: every request once', async () => {
    const { org, live } = await customer('paged');
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push(String((await bare(ctx, `/v1/codes?limit=${1 + (i % 3)}`, bearer(live.key))).headers['request-id']));
    await ctx.deps.requestLog.flush();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await pageRequestLog(ctx.deps.admin, org, { cursor }, 10);
      seen.push(...page.entries.map((e) => e.requestId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ids.reverse());
  });

  test('a key-shaped value in a logged path or query is redacted; one-time tokens too', async () => {
    const { org, live } = await customer('redacted');
    const res = await bare(ctx, `/v1/codes/${live.key}`, bearer(live.key));
    assert.equal(res.statusCode, 404);
    await ctx.deps.requestLog.flush();
    const [entry] = (await pageRequestLog(ctx.deps.admin, org, {})).entries;
    assert.equal(entry!.path, '/v1/codes/[REDACTED]');
    assert.ok(!JSON.stringify(entry).includes(randomPart(live.key)));
    assert.equal(loggedPath(`/v1/codes?limit=2&q=${encodeURIComponent(live.key)}&token=abc`), '/v1/codes?limit=2&q=[REDACTED]&token=[REDACTED]');
    assert.equal(loggedPath(`/v1/codes?${live.key}`), '/v1/codes?[REDACTED]');
    const encoded = `%73%76%63%5F${live.key.slice(4)}`;
    assert.equal(loggedPath(`/v1/codes/${encoded}?q=${encoded}`), '/v1/codes/[REDACTED]?q=[REDACTED]', 'percent-encoded, too');
    assert.equal(loggedPath('/v1/codes/dx%3AA01.1?limit=5'), '/v1/codes/dx%3AA01.1?limit=5', 'an escape that hides no key is kept as it is');
  });

  test("kept for the organisation's days or count, whichever ends first", async () => {
    const { org, live } = await customer('kept');
    await updateOrgSettings(ctx.deps.admin, org, { autoRevokeExposed: false, requestLogDays: 2, requestLogMax: 100 }, 'test');
    await assert.rejects(updateOrgSettings(ctx.deps.admin, org, { autoRevokeExposed: false, requestLogDays: 8, requestLogMax: 100 }, 'test'), /1 to 7 days/);
    await assert.rejects(
      updateOrgSettings(ctx.deps.admin, org, { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_001 }, 'test'),
      /100 to 10000/,
    );
    for (let i = 0; i < 105; i++) await bare(ctx, '/v1/codes?limit=1', bearer(live.key));
    await ctx.deps.requestLog.flush();
    await ctx.deps.requestLog.prune(org.id);
    assert.equal((await pageRequestLog(ctx.deps.admin, org, {}, 500)).entries.length, 100, 'the newest 100');
    ctx.clock.advance(2 * 86_400_000 + 1);
    const fresh = await bare(ctx, '/v1/codes?limit=1', bearer(live.key));
    await ctx.deps.requestLog.flush();
    await ctx.deps.requestLog.prune(org.id);
    assert.deepEqual(
      (await pageRequestLog(ctx.deps.admin, org, {}, 500)).entries.map((e) => e.requestId),
      [fresh.headers['request-id']],
      'older than 2 days: gone',
    );
  });

  test("memory is bounded: beyond the batch's bound, entries are dropped and counted, never waited for", async () => {
    const recorder = new RequestLogRecorder(ctx.store.keyLife, { now: ctx.clock.now, flushIntervalMs: 3_600_000 });
    try {
      const entry = pendingEntry('req_bound');
      for (let i = 0; i < MAX_PENDING + 7; i++) recorder.record(entry);
      assert.equal(recorder.dropped, 7);
    } finally {
      await recorder.close();
    }
    const logged = await pageRequestLog(ctx.deps.admin, ctx.org, { requestId: 'req_bound' }, 1);
    assert.equal(logged.entries.length, 1, 'what was kept is written on close');
  });

  test('a large batch is written beside the requests: the event loop runs on while it is written', async () => {
    const recorder = new RequestLogRecorder(ctx.store.keyLife, { now: ctx.clock.now, flushIntervalMs: 3_600_000 });
    const logged = async (i: number) => (await pageRequestLog(ctx.deps.admin, ctx.org, { requestId: `req_slice_${i}` }, 1)).entries.length === 1;
    const total = 3 * EVENT_LOOP_APPEND_SLICE + 1;
    try {
      for (let i = 0; i < total; i++) recorder.record(pendingEntry(`req_slice_${i}`));
      let done = false;
      const flushed = recorder.flush().then(() => (done = true));
      // What the event loop runs while the flush is under way, as requests arriving meanwhile would be.
      let turns = 0;
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
      await flushed;
      assert.ok(turns >= 4, `the event loop ran ${turns} turns while the batch was written`);
      assert.deepEqual(
        [await logged(0), await logged(EVENT_LOOP_APPEND_SLICE), await logged(total - 1)],
        [true, true, true],
        'the whole batch once the flush returns',
      );
    } finally {
      await recorder.close();
    }
  });
});
