/**
 * @codebook/client against a real server (SQLite, listening on a free port):
 * every method, one page when awaited and every record when iterated, the key
 * only ever in the Authorization header, and never printed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { Codebook, CodeNotFoundError, type Change, type Code } from '../../clients/typescript/src/index.ts';
import { ALL_ENDPOINTS, codeRows, recordingFetch, startTestServer, type TestServer } from './server.ts';

let server: TestServer;
let key: string;

before(async () => {
  server = await startTestServer();
  key = await server.customer();
  await server.importRows(codeRows(50), { system: 'alpha', release: 'r1', effectiveDate: '2024-01-01' });
  await server.importRows(
    [
      { code: 'X/1', display: 'A code with a slash' },
      { code: 'é', display: 'Not ASCII' },
    ],
    { system: 'beta', release: 'r1', effectiveDate: '2024-01-01' },
  );
  await server.importRows(
    [
      { code: 'C001', display: 'Code one, revised' },
      { code: 'C002', display: 'Code 2', status: 'retired' },
    ],
    { system: 'alpha', release: 'r2', effectiveDate: '2024-02-01' },
  );
});
after(() => server.close());

const client = (options: ConstructorParameters<typeof Codebook>[0] = {}) => new Codebook({ apiKey: key, baseUrl: server.url, ...options });

/** Every record of a collection as the API pages it, with a hand-written cursor loop. */
async function walk<T>(path: string, limit: number): Promise<T[]> {
  const records: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const url = new URL(path, server.url);
    url.searchParams.set('limit', String(limit));
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: T[]; pagination: { has_more: boolean; next_cursor?: string } };
    records.push(...body.data);
    if (!body.pagination.has_more) return records;
    cursor = body.pagination.next_cursor;
  }
}

describe('codes', () => {
  test('get returns the record, also for codes with a slash or outside ASCII', async () => {
    const codebook = client();
    const code: Code = await codebook.codes.get('alpha:C001');
    assert.equal(code.object, 'code');
    assert.equal(code.id, 'alpha:C001');
    assert.equal(code.display, 'Code one, revised');
    assert.equal(code.release, 'r2');
    assert.equal((await codebook.codes.get('beta:X/1')).display, 'A code with a slash');
    assert.equal((await codebook.codes.get('beta:é')).display, 'Not ASCII');
  });

  test('get of an unknown code throws CodeNotFoundError with the request id', async () => {
    const error = await client()
      .codes.get('alpha:NOPE')
      .then(
        () => assert.fail('resolved'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof CodeNotFoundError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'code_not_found');
    assert.match(error.requestId ?? '', /^req_[0-9a-f]{32}$/);
  });

  test('list awaited is one page: data, hasMore and nextCursor, as the API sent them', async () => {
    const page = await client().codes.list({ system: 'alpha', limit: 20 });
    assert.equal(page.data.length, 20);
    assert.equal(page.data[0]!.id, 'alpha:C000');
    assert.equal(page.hasMore, true);
    assert.equal(typeof page.nextCursor, 'string');
    const next = await client().codes.list({ system: 'alpha', limit: 20, cursor: page.nextCursor });
    assert.equal(next.data[0]!.id, 'alpha:C020');
    const last = await client().codes.list({ system: 'alpha', limit: 20, cursor: next.nextCursor });
    assert.deepEqual(last.data.map((c) => c.id).slice(0, 2), ['alpha:C040', 'alpha:C041']);
    assert.equal(last.data.length, 10);
    assert.equal(last.hasMore, false);
    assert.equal(last.nextCursor, undefined);
  });

  test('list iterated yields every record across more than three pages, in order, with the same limit and filters on each page', async () => {
    const recorder = recordingFetch();
    const ids: string[] = [];
    for await (const code of client({ fetch: recorder.fetch }).codes.list({ system: 'alpha', limit: 12 })) ids.push(code.id);
    const expected = (await walk<Code>('/v1/codes?system=alpha', 200)).map((c) => c.id);
    assert.equal(expected.length, 50);
    assert.deepEqual(ids, expected);
    assert.equal(recorder.sent.length, 5, 'pages of 12, 12, 12, 12, 2');
    for (const [i, sent] of recorder.sent.entries()) {
      const url = new URL(sent.url);
      assert.equal(url.pathname, '/v1/codes');
      assert.equal(url.searchParams.get('limit'), '12');
      assert.equal(url.searchParams.get('system'), 'alpha');
      assert.equal(url.searchParams.has('cursor'), i > 0);
    }
  });

  test('list filters by status; the page object can be awaited and then iterated without asking twice for the first page', async () => {
    const recorder = recordingFetch();
    const retired = client({ fetch: recorder.fetch }).codes.list({ status: 'retired', limit: 1 });
    const first = await retired;
    assert.deepEqual(
      first.data.map((c) => c.id),
      ['alpha:C002'],
    );
    const all: string[] = [];
    for await (const code of retired) all.push(code.id);
    assert.deepEqual(all, ['alpha:C002']);
    assert.equal(recorder.sent.length, 1);
  });

  test('pages() walks page by page', async () => {
    const sizes: number[] = [];
    for await (const page of client().codes.list({ system: 'alpha', limit: 15 }).pages()) sizes.push(page.data.length);
    assert.deepEqual(sizes, [15, 15, 15, 5]);
  });

  test('changes of one code, in feed order', async () => {
    const changes: Change[] = [];
    for await (const change of client().codes.changes('alpha:C002', { limit: 1 })) changes.push(change);
    assert.deepEqual(
      changes.map((c) => [c.type, c.effective_date]),
      [
        ['added', '2024-01-01'],
        ['retired', '2024-02-01'],
      ],
    );
    const revised = await client().codes.changes('alpha:C001', { type: 'revised' });
    assert.deepEqual(
      revised.data.map((c) => c.after),
      [{ display: 'Code one, revised' }],
    );
  });

  test('an id of . or .. is refused before anything is sent: fetch would resolve it as a path segment and ask another endpoint', async () => {
    const recorded = recordingFetch();
    const codebook = client({ fetch: recorded.fetch });
    // Sent, '..' would make /v1/codes/../changes, that is /v1/changes: the whole feed as this code's changes.
    assert.throws(() => codebook.codes.changes('..'), TypeError);
    assert.throws(() => codebook.codes.get('.'), TypeError);
    assert.throws(() => codebook.codes.ancestors('..'), TypeError);
    assert.throws(() => codebook.systems.releases('..'), TypeError);
    assert.throws(() => codebook.systems.get('.'), TypeError);
    assert.deepEqual(recorded.sent, []);
    // Dots inside an id are the id's own, and travel as they are.
    await assert.rejects(codebook.codes.get('alpha:..'), CodeNotFoundError);
  });
});

describe('codes.batch', () => {
  let batchKey: string;
  before(async () => {
    batchKey = await server.customer({ endpoints: [...ALL_ENDPOINTS, 'codes.batch'] });
  });
  const batchClient = (options: ConstructorParameters<typeof Codebook>[0] = {}) => client({ apiKey: batchKey, ...options });

  test('gives the records in the order asked and the ids not found, as of a date when asked', async () => {
    const codebook = batchClient();
    const now = await codebook.codes.batch(['alpha:C002', 'alpha:NOPE', 'alpha:C001']);
    assert.deepEqual(
      now.data.map((code) => [code.id, code.status]),
      [
        ['alpha:C002', 'retired'],
        ['alpha:C001', 'active'],
      ],
    );
    assert.deepEqual(now.not_found, ['alpha:NOPE']);
    const before = await codebook.codes.batch(['alpha:C002'], { as_of: '2024-01-31' });
    assert.equal(before.data[0]?.status, 'active');
  });

  test('more ids than one request takes are refused before anything is sent', async () => {
    const recorded = recordingFetch();
    const codebook = batchClient({ fetch: recorded.fetch });
    // Sent, a body of many megabytes is cut off by the service's 64 KiB limit while it is
    // still being written: a connection error, retried with the whole upload each time.
    const ids = Array.from({ length: 300_000 }, (_, i) => `alpha:C${i}`);
    assert.throws(() => codebook.codes.batch(ids), { name: 'TypeError', message: /at most 200 ids.*got 300000/ });
    assert.throws(() => codebook.codes.batch(ids.slice(0, 201)), TypeError);
    assert.deepEqual(recorded.sent, []);
    const most = await codebook.codes.batch(ids.slice(0, 200));
    assert.equal(most.data.length + most.not_found.length, 200);
    assert.equal(recorded.sent.length, 1);
  });
});

describe('changes', () => {
  test('list iterated gives the whole feed in (effective_date, id) order; filters are sent as the API names them', async () => {
    const ids: number[] = [];
    for await (const change of client().changes.list({ limit: 7 })) ids.push(change.id);
    assert.deepEqual(
      ids,
      (await walk<Change>('/v1/changes', 200)).map((c) => c.id),
    );
    assert.equal(ids.length, 54);
    const february = await client().changes.list({ effective_from: '2024-02-01', system: 'alpha' });
    assert.deepEqual(
      february.data.map((c) => c.code_id),
      ['alpha:C001', 'alpha:C002'],
    );
    assert.equal(february.hasMore, false);
  });
});

describe('the key', () => {
  test('travels in the Authorization header only, never in a URL', async () => {
    const recorder = recordingFetch();
    const codebook = client({ fetch: recorder.fetch });
    await codebook.codes.get('alpha:C001');
    await codebook.codes.list({ limit: 2 });
    for (const sent of recorder.sent) {
      assert.equal(sent.headers.authorization, `Bearer ${key}`);
      assert.ok(!sent.url.includes(key));
      assert.ok(!sent.url.includes(key.slice('svc_live_'.length)));
    }
  });

  test('is never printed: inspect, JSON.stringify, errors', async () => {
    const codebook = client({ fetch: recordingFetch().fetch });
    const secret = key.slice('svc_live_'.length);
    // String(codebook) on purpose: however the client is turned into text, the key must not show.
    for (const shown of [
      inspect(codebook, { showHidden: true, depth: 10 }),
      inspect(codebook.codes, { showHidden: true, depth: 10 }),
      JSON.stringify(codebook),
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      String(codebook),
      inspect(codebook.changes.follow()),
    ]) {
      assert.ok(!shown.includes(secret), shown);
    }
    const error = await codebook.codes.get('alpha:NOPE').catch((e: unknown) => e);
    assert.ok(!inspect(error, { showHidden: true, depth: 10 }).includes(secret));
    assert.ok(!JSON.stringify(error).includes(secret));
    const down = await new Codebook({ apiKey: key, baseUrl: 'http://127.0.0.1:1', maxRetries: 0 }).codes.get('a:b').catch((e: unknown) => e);
    assert.ok(!inspect(down, { showHidden: true, depth: 10 }).includes(secret));
  });

  test('comes from CODEBOOK_API_KEY (and the address from CODEBOOK_BASE_URL) when not given', async () => {
    const saved = { key: process.env.CODEBOOK_API_KEY, url: process.env.CODEBOOK_BASE_URL };
    process.env.CODEBOOK_API_KEY = key;
    process.env.CODEBOOK_BASE_URL = server.url;
    try {
      assert.equal((await new Codebook().codes.get('alpha:C000')).id, 'alpha:C000');
      delete process.env.CODEBOOK_API_KEY;
      assert.throws(() => new Codebook(), /No API key: pass apiKey .* or set the CODEBOOK_API_KEY environment variable/);
    } finally {
      for (const [name, value] of [
        ['CODEBOOK_API_KEY', saved.key],
        ['CODEBOOK_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test('a key that could not be a header value is refused without being echoed', () => {
    assert.throws(
      () => new Codebook({ apiKey: `${key}\nX-Evil: 1`, baseUrl: server.url }),
      (e: Error) => e instanceof TypeError && !e.message.includes(key.slice(9)),
    );
  });

  test('a base URL that could carry a secret is refused', () => {
    for (const baseUrl of [`http://user:pw@127.0.0.1:1`, `${server.url}/?api_key=${key}`, 'ftp://example.com', 'not a url']) {
      assert.throws(() => new Codebook({ apiKey: key, baseUrl }), TypeError, baseUrl);
    }
  });
});

describe('in a web page', () => {
  test('the constructor refuses unless dangerouslyAllowBrowser is passed, and says why', () => {
    const globals = globalThis as { window?: unknown; document?: unknown };
    globals.window = {};
    globals.document = {};
    try {
      assert.throws(() => new Codebook({ apiKey: key, baseUrl: server.url }), /API keys are server-side secrets.*dangerouslyAllowBrowser/s);
      assert.ok(new Codebook({ apiKey: key, baseUrl: server.url, dangerouslyAllowBrowser: true }));
    } finally {
      delete globals.window;
      delete globals.document;
    }
    // Deno 1 has a window but no document: a server runtime.
    globals.window = {};
    try {
      assert.ok(new Codebook({ apiKey: key, baseUrl: server.url }));
    } finally {
      delete globals.window;
    }
  });
});

describe('rate limits', () => {
  test('rateLimit is null before the first answer, then the last RateLimit fields, parsed; no month on a plan without an allowance', async () => {
    assert.equal(client().rateLimit, null);
    const codebook = client();
    await codebook.codes.get('alpha:C000');
    const state = codebook.rateLimit;
    assert.equal(state?.minute?.limit, 1_000_000);
    assert.equal(state?.minute?.windowSeconds, 60);
    assert.ok(state.minute.remaining < 1_000_000);
    assert.ok(state.minute.resetSeconds >= 0 && state.minute.resetSeconds <= 60);
    assert.equal(state?.month, undefined);
    assert.deepEqual(Object.keys(state.windows), ['minute']);
  });
});

describe('raw requests', () => {
  test('client.request reaches any path with the key, the errors and the retries of the typed methods', async () => {
    const page = await client().request<{ data: Code[] }>({ path: '/v1/codes', query: { limit: 3, system: 'beta' } });
    assert.deepEqual(
      page.data.map((c) => c.id),
      ['beta:X/1', 'beta:é'],
    );
    await assert.rejects(client().request({ path: '/v1/codes/alpha%3ANOPE' }), CodeNotFoundError);
  });
});
