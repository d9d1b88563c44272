/**
 * The express lane against the full path, over real sockets: one service, two
 * listeners, one with the lane in front of Fastify and one without. Every
 * request is sent to both, each with keys of its own organisation on the same
 * plan (so the limits count alike), and the answers must be the same bytes:
 * status, every header in order, body, but for the Request-Id and the Date.
 * The lane's counter in /metrics says which requests it answered, so a lane
 * that silently handed everything to Fastify fails too; so does one whose
 * usage counts or request log differ.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, revokeKey, setPlan, usageReport } from '../../src/services/access/admin.ts';
import { pageRequestLog } from '../../src/services/access/request-log.ts';
import type { Organisation } from '../../src/domain/access.ts';
import { ENDPOINTS } from '../../src/domain/access.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { expressLaneCount } from '../helpers/express-lane.ts';

interface Side {
  port: number;
  keys: Record<'all' | 'slow' | 'noGet' | 'noList' | 'revoked' | 'test', string>;
  orgs: Organisation[];
}

interface Answer {
  status: string;
  fields: [string, string][];
  body: string;
}

const LONG_DEFINITION = 'A definition long enough that the record passes the size above which answers are compressed. '.repeat(12);

async function listen(app: FastifyInstance): Promise<number> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(address).port);
}

/** One request on its own connection, read to the end: the status line, the header fields in order, the body. */
async function exchange(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  const { text, closed } = await rawExchange(port, `${lines.join('\r\n')}\r\n\r\n`);
  assert.ok(closed, `no end of the answer to ${method} ${path}`);
  const split = text.indexOf('\r\n\r\n');
  const [status, ...fieldLines] = Buffer.from(text.slice(0, split), 'latin1').toString('utf8').split('\r\n');
  const fields = fieldLines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
  // A compressed body stays one character a byte, so that two bodies compare byte for byte; any other is read as UTF-8.
  const raw = text.slice(split + 4);
  const compressed = fields.some(([name]) => name === 'content-encoding');
  return { status: status!, fields, body: compressed ? raw : Buffer.from(raw, 'latin1').toString('utf8') };
}

/** What may differ between two answers to the same request: the Request-Id (in its header and an error's body) and the Date. */
function normalised(answer: Answer): Answer {
  const id = answer.fields.find(([name]) => name === 'request-id')?.[1];
  assert.match(id ?? '', /^req_[0-9a-f]{32}$/, 'a Request-Id on every answer');
  return {
    status: answer.status,
    fields: answer.fields.filter(([name]) => name !== 'date').map(([name, value]) => [name, name === 'request-id' ? 'req_…' : value]),
    body: answer.body.replaceAll(id!, 'req_…'),
  };
}

/** The lane's counter on one side's listener. */
const laneCount = (side: Side): Promise<number> => expressLaneCount(`http://127.0.0.1:${side.port}`);

describe('the express lane answers as the full path does', () => {
  let ctx: TestContext;
  let full: FastifyInstance;
  let lane: Side;
  let plain: Side;
  let tag: string;

  async function side(port: number, name: string): Promise<Side> {
    const admin = ctx.deps.admin;
    const all = await createOrg(admin, `${name}-all`, 'lane-all');
    const slowOrg = await createOrg(admin, `${name}-slow`, 'lane-slow');
    const noGet = await createOrg(admin, `${name}-noget`, 'lane-noget');
    const noList = await createOrg(admin, `${name}-nolist`, 'lane-nolist');
    const revoked = await createKey(admin, all, 'live', 'revoked');
    await revokeKey(admin, revoked.info.id, all);
    return {
      port,
      orgs: [all, slowOrg, noGet, noList],
      keys: {
        all: (await createKey(admin, all, 'live', 'all')).key,
        slow: (await createKey(admin, slowOrg, 'live', 'slow')).key,
        noGet: (await createKey(admin, noGet, 'live', 'no get')).key,
        noList: (await createKey(admin, noList, 'live', 'no list')).key,
        revoked: revoked.key,
        test: (await createKey(admin, all, 'test', 'ci')).key,
      },
    };
  }

  before(async () => {
    ctx = await createTestContext();
    await ctx.importRows(
      [
        { code: 'A', display: 'Alpha' },
        { code: 'B.1', display: 'Beta one', parents: 'A' },
        { code: "x-y_z~!$&'()*+,;=@", display: 'Every plain character' },
        { code: 'A/B', display: 'A slash' },
        { code: 'ü', display: 'Non-ASCII' },
        { code: 'LONG', display: 'Long', definition: LONG_DEFINITION },
        // Asked for only by the test of the read cache's counts.
        { code: 'COUNT', display: 'Counted' },
        { code: 'COUNTLONG', display: 'Counted, long', definition: LONG_DEFINITION },
      ],
      { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
    );
    const admin = ctx.deps.admin;
    const every = { endpoints: [...ENDPOINTS], monthlyQuota: null, testKeysAllowed: true };
    await setPlan(admin, { name: 'lane-all', ratePerMinute: 1_000_000, ...every });
    await setPlan(admin, { name: 'lane-slow', ratePerMinute: 3, ...every });
    await setPlan(admin, { ...every, name: 'lane-noget', ratePerMinute: 1_000, endpoints: ENDPOINTS.filter((e) => e !== 'codes.get') });
    const lists = new Set(['codes.list', 'changes.list']);
    await setPlan(admin, { ...every, name: 'lane-nolist', ratePerMinute: 1_000, endpoints: ENDPOINTS.filter((e) => !lists.has(e)) });
    full = await buildApp(ctx.deps, { expressLane: false });
    lane = await side(await listen(ctx.app), 'lane');
    plain = await side(await listen(full), 'full');
    // A key's first request looks it up (the full path) and caches it; the lane takes the ones after.
    // Each key once on both sides, so that their counts stay alike; the record's tag for If-None-Match.
    for (const s of [plain, lane]) {
      for (const key of Object.values(s.keys)) {
        const first = await fetch(`http://127.0.0.1:${s.port}/v1/codes/demo:A`, { headers: { authorization: `Bearer ${key}` } });
        if (key === s.keys.all) tag = first.headers.get('etag')!;
      }
    }
  });
  after(async () => {
    await full.close();
    await ctx.close();
  });

  /** Sends the request to both listeners (each with its own side's key) and asserts the same answer; returns it. */
  async function both(method: string, path: string, headers: (keys: Side['keys']) => Record<string, string>): Promise<Answer> {
    const a = normalised(await exchange(lane.port, method, path, headers(lane.keys)));
    const b = normalised(await exchange(plain.port, method, path, headers(plain.keys)));
    assert.deepEqual(a, b, `${method} ${path}: the lane answered otherwise than the full path`);
    return a;
  }

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  test('the requests it takes: a record, and the 401s of keys it can refuse without a query', async () => {
    const before = await laneCount(lane);
    const answers = [
      await both('GET', '/v1/codes/demo:A', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:B.1', (k) => ({ 'X-API-Key': k.all })),
      await both('GET', "/v1/codes/demo:x-y_z~!$&'()*+,;=@", (k) => bearer(k.test)),
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), 'Accept-Encoding': 'br, gzip', Accept: 'application/json' })),
      // An expectation the server does not know is ignored (RFC 9110 §10.1.1): the request is as any other.
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), Expect: 'foo' })),
      await both('GET', '/v1/codes/demo:A', () => bearer('svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')),
      await both('GET', '/v1/codes/demo:A', () => bearer('not-a-key')),
      await both('GET', '/v1/codes/demo:A', () => ({})),
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), 'X-API-Key': k.test })),
      await both('GET', '/v1/codes/demo:A', () => ({ Authorization: 'Basic abc' })),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array(5).fill('HTTP/1.1 200 OK'), ...Array(5).fill('HTTP/1.1 401 Unauthorized')],
    );
    assert.equal(JSON.parse(answers[0]!.body).id, 'demo:A');
    assert.equal(await laneCount(lane), before + answers.length, 'the lane answered each of them');
  });

  test('the limits: RateLimit fields on each answer, then the 429, alike', async () => {
    const before = await laneCount(lane);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await both('GET', '/v1/codes/demo:A', (k) => bearer(k.slow))).status);
    assert.deepEqual(statuses, ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 429 Too Many Requests']);
    assert.equal(await laneCount(lane), before + 3);
  });

  test('everything else takes the full path, with the same answer', async () => {
    const before = await laneCount(lane);
    const answers = [
      await both('GET', '/v1/codes/demo:NOPE', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo%3AA', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:A%2FB', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:%C3%BC', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:A?as_of=2024-06-01', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), 'If-None-Match': tag })),
      await both('HEAD', '/v1/codes/demo:A', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:A', (k) => bearer(k.noGet)),
      await both('GET', '/v1/codes/demo:A', (k) => bearer(k.revoked)),
      await both('GET', '/v1/codes/demo:LONG', (k) => ({ ...bearer(k.all), 'Accept-Encoding': 'gzip' })),
      await both('GET', '/v1/codes/demo:LONG', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/search', () => bearer('svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')),
      await both('GET', '/v1/codes/svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', (k) => bearer(k.all)),
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), Referer: 'https://example.com/?key=svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })),
      await both('GET', '/v1/codes/demo:A/', (k) => bearer(k.all)),
      await both('POST', '/v1/codes/demo:A', (k) => bearer(k.all)),
      // A second Host line (the first is exchange()'s): the front door's 400.
      await both('GET', '/v1/codes/demo:A', (k) => ({ ...bearer(k.all), Host: 'x' })),
    ];
    assert.deepEqual(
      answers.map((a) => a.status.split(' ')[1]),
      ['404', '200', '200', '200', '200', '304', '200', '403', '401', '200', '200', '401', '404', '200', '404', '405', '400'],
    );
    assert.ok(
      answers[9]!.fields.some(([name, value]) => name === 'content-encoding' && value === 'gzip'),
      'a record past the size compresses (the full path)',
    );
    assert.equal(await laneCount(lane), before, 'none of them was the lane’s');
  });

  test('a page the full path kept for this URL: the lane answers it as the full path does', async () => {
    const pages = ['/v1/codes?system=demo', '/v1/codes?system=demo&limit=1', '/v1/changes?limit=3', '/v1/codes', '/v1/codes?system=demo&as_of=2024-06-01'];
    // The first time, the full path answers on both sides and keeps each answer.
    let before = await laneCount(lane);
    const made: Answer[] = [];
    for (const url of pages) made.push(await both('GET', url, (k) => bearer(k.all)));
    assert.equal(await laneCount(lane), before, 'nothing kept yet: the full path answered');
    before = await laneCount(lane);
    // The same answer as the first time but for the limits' count.
    const lasting = (a: Answer) => ({ ...a, fields: a.fields.filter(([name]) => name !== 'ratelimit') });
    for (const [i, url] of pages.entries()) {
      const again = await both('GET', url, (k) => bearer(k.all));
      assert.deepEqual(lasting(again), lasting(made[i]!), `${url}: kept, the same answer`);
    }
    await both('GET', '/v1/codes?system=demo', (k) => ({ ...bearer(k.test), Accept: 'application/json', 'Accept-Encoding': 'identity' }));
    assert.equal(await laneCount(lane), before + pages.length + 1, 'the lane answered each of them again');
    const vary = (a: Answer) => a.fields.find(([name]) => name === 'vary')?.[1];
    assert.equal(vary(made[0]!), 'Accept-Encoding', 'a page of 1 KB or more varies by coding');
    assert.equal(vary(made[1]!), undefined, 'a smaller one is never compressed');

    // What the lane leaves to the full path: a coding the page would be sent in, a condition, a page not kept, a plan without it, a key in the URL.
    before = await laneCount(lane);
    const tagOf = (a: Answer) => a.fields.find(([name]) => name === 'etag')![1];
    const others = [
      await both('GET', '/v1/codes?system=demo', (k) => ({ ...bearer(k.all), 'Accept-Encoding': 'br' })),
      await both('GET', '/v1/codes?system=demo', (k) => ({ ...bearer(k.all), 'If-None-Match': tagOf(made[0]!) })),
      await both('GET', '/v1/codes?system=demo&limit=4', (k) => bearer(k.all)),
      await both('GET', '/v1/codes?system=demo&limit=oops', (k) => bearer(k.all)),
      await both('GET', '/v1/codes?system=svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', (k) => bearer(k.all)),
      await both('GET', '/v1/codes?system=demo', (k) => bearer(k.noList)),
      await both('GET', '/v1/changes?limit=3', (k) => bearer(k.noList)),
    ];
    assert.deepEqual(
      others.map((a) => a.status.split(' ')[1]),
      ['200', '304', '200', '400', '400', '403', '403'],
    );
    assert.equal(await laneCount(lane), before, 'none of them was the lane’s');
    // The limits and a refused key, as for a record, and the lane's.
    before = await laneCount(lane);
    const limited = [];
    ctx.clock.advance(60_000); // A minute on: the slow plan's 3 a minute again.
    for (let i = 0; i < 4; i++) limited.push((await both('GET', '/v1/codes?system=demo&limit=1', (k) => bearer(k.slow))).status.split(' ')[1]);
    assert.deepEqual(limited, ['200', '200', '200', '429']);
    assert.equal((await both('GET', '/v1/codes?system=demo', () => bearer('svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'))).status.split(' ')[1], '401');
    assert.equal(await laneCount(lane), before + 5, 'the lane answered the 200s, the 429 and the 401');
  });

  test('a kept page for a client that takes it compressed: the lane answers once the compressed form is kept too', async () => {
    // A body no other URL has (its cursor), so that no compressed form of it is kept yet.
    const url = '/v1/codes?system=demo&limit=5';
    await both('GET', url, (k) => bearer(k.all));
    for (const coding of ['gzip', 'br']) {
      const headers = (k: Side['keys']) => ({ ...bearer(k.all), 'Accept-Encoding': `${coding}, identity;q=0.5` });
      let before = await laneCount(lane);
      const first = await both('GET', url, headers);
      assert.equal(await laneCount(lane), before, `${coding}: not yet compressed, the full path compresses it`);
      before = await laneCount(lane);
      const again = await both('GET', url, headers);
      assert.equal(await laneCount(lane), before + 1, `${coding}: the lane’s`);
      const field = (a: Answer, name: string) => a.fields.find(([n]) => n === name)?.[1];
      assert.equal(field(again, 'content-encoding'), coding);
      assert.match(field(again, 'etag') ?? '', /^W\//);
      assert.equal(again.body, first.body);
    }
    // A page under 1 KiB is never compressed: the lane answers it as it is, whatever the client takes.
    await both('GET', '/v1/codes?system=demo&limit=1', (k) => bearer(k.all));
    const before = await laneCount(lane);
    const small = await both('GET', '/v1/codes?system=demo&limit=1', (k) => ({ ...bearer(k.all), 'Accept-Encoding': 'br, gzip' }));
    assert.equal(await laneCount(lane), before + 1);
    assert.equal(
      small.fields.find(([n]) => n === 'content-encoding'),
      undefined,
    );
  });

  test('the read cache counts a page once, whichever path answers it', async () => {
    const stats = () => ctx.deps.catalog.stats();
    const url = '/v1/changes?limit=2';
    let before = stats();
    await exchange(lane.port, 'GET', url, bearer(lane.keys.all));
    assert.deepEqual([stats().hits - before.hits, stats().misses - before.misses], [0, 1], 'not kept: one miss (the lane looked, uncounted)');
    before = stats();
    for (let i = 0; i < 3; i++) await exchange(lane.port, 'GET', url, bearer(lane.keys.all));
    assert.deepEqual([stats().hits - before.hits, stats().misses - before.misses], [3, 0], 'kept: a hit each');
    // Kept, but its compressed form not yet: the lane leaves it to the full path, which counts the hit.
    before = stats();
    await exchange(lane.port, 'GET', url, { ...bearer(lane.keys.all), 'Accept-Encoding': 'gzip' });
    assert.deepEqual([stats().hits - before.hits, stats().misses - before.misses], [1, 0], 'left to the full path: one hit');
    // The full path's side makes the same requests, so that the two sides' limits and usage stay alike.
    for (let i = 0; i < 4; i++) await exchange(plain.port, 'GET', url, bearer(plain.keys.all));
    await exchange(plain.port, 'GET', url, { ...bearer(plain.keys.all), 'Accept-Encoding': 'gzip' });
  });

  test('the read cache counts a record once, whichever path answers it', async () => {
    const stats = () => ctx.deps.catalog.stats();
    const counts = async (path: string): Promise<[number, number]> => {
      const before = stats();
      const answer = await exchange(lane.port, 'GET', path, bearer(lane.keys.all));
      assert.match(answer.status, / (200|404) /);
      return [stats().hits - before.hits, stats().misses - before.misses];
    };
    const laneBefore = await laneCount(lane);
    // The lane answers a small record: a miss, then a hit.
    assert.deepEqual(await counts('/v1/codes/demo:COUNT'), [0, 1]);
    assert.deepEqual(await counts('/v1/codes/demo:COUNT'), [1, 0]);
    assert.equal(await laneCount(lane), laneBefore + 2);
    // The lane looks at a record large enough to compress and an unknown code, and leaves them to the full path.
    assert.deepEqual(await counts('/v1/codes/demo:COUNTLONG'), [0, 1]);
    assert.deepEqual(await counts('/v1/codes/demo:COUNTLONG'), [1, 0]);
    assert.deepEqual(await counts('/v1/codes/demo:NOT-THERE'), [0, 1]);
    assert.deepEqual(await counts('/v1/codes/demo:NOT-THERE'), [0, 1]);
    assert.equal(await laneCount(lane), laneBefore + 2, 'those were the full path’s');
    for (const code of ['COUNT', 'COUNT', 'COUNTLONG', 'COUNTLONG', 'NOT-THERE', 'NOT-THERE']) {
      await exchange(plain.port, 'GET', `/v1/codes/demo:${code}`, bearer(plain.keys.all));
    }
  });

  test('a page the lane answered, after an import: the very next request answers the new data', async () => {
    const url = '/v1/codes?system=demo&limit=2';
    await both('GET', url, (k) => bearer(k.all));
    let before = await laneCount(lane);
    const kept = await both('GET', url, (k) => bearer(k.all));
    assert.equal(await laneCount(lane), before + 1, 'kept: the lane’s');
    await ctx.importRows([{ code: 'A', display: 'Alpha, imported again' }], { system: 'demo', release: 'r2', effectiveDate: '2024-02-01', mode: 'delta' });
    before = await laneCount(lane);
    const after = await both('GET', url, (k) => bearer(k.all));
    assert.equal(await laneCount(lane), before, 'nothing kept from before the import: the full path’s');
    assert.equal((JSON.parse(after.body) as { data: { display: string }[] }).data[0]!.display, 'Alpha, imported again');
    assert.notEqual(after.body, kept.body);
  });

  test('usage and the request log count the lane’s answers as the full path’s', async () => {
    // Every count written: the limiter's month counts (what "counted" reads) are written on a timer of their own.
    await ctx.deps.limiter.flush();
    await ctx.deps.usage.flush();
    await ctx.deps.requestLog.flush();
    const month = new Date(ctx.clock.ms).toISOString().slice(0, 7);
    for (let i = 0; i < lane.orgs.length; i++) {
      const [a, b] = [lane.orgs[i]!, plain.orgs[i]!];
      const [usageA, usageB] = [await usageReport(ctx.deps.admin, a, month), await usageReport(ctx.deps.admin, b, month)];
      // In an order of their own: the keys' ids (random) order byKey.
      const sorted = (counts: Record<string, number>) => Object.entries(counts).sort();
      const counts = (u: typeof usageA) => ({
        counted: u.counted,
        notCounted: sorted(u.notCounted),
        byOutcome: sorted(u.byOutcome),
        byKey: u.byKey.map((k) => [k.name, k.mode, sorted(k.byOutcome)]).sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      });
      assert.ok(usageA.total > 0, `${a.slug}: requests counted`);
      assert.deepEqual(counts(usageA), counts(usageB), `${a.slug}: usage`);
      const entries = async (org: Organisation) =>
        (await pageRequestLog(ctx.deps.admin, org, {})).entries.map((e) => [e.method, e.path, e.status, e.errorCode]);
      const logged = await entries(a);
      assert.ok(logged.length > 0, `${a.slug}: requests logged`);
      assert.deepEqual(logged, await entries(b), `${a.slug}: request log`);
    }
  });

  test('a lane that is switched off answers nothing', async () => {
    const before = await laneCount(plain);
    await exchange(plain.port, 'GET', '/v1/codes/demo:A', bearer(plain.keys.all));
    assert.equal(await laneCount(plain), before);
  });
});
