/**
 * The public reference: /openapi.json describes the API that answers, carries
 * the guide and an example of every response; /healthz answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { DEFAULT_PLANS, ENDPOINTS, type EndpointName } from '../../src/domain/access.ts';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../src/errors.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { validatorFor, type DocOperation as Operation, type Json, type OpenApiDoc as Doc } from '../helpers/openapi.ts';

const HIERARCHY = ['code_id', 'cursor', 'limit', 'status'];
const OPERATIONS: Record<string, { path: string; params: string[]; method?: string }> = {
  listCodes: { path: '/v1/codes', params: ['as_of', 'cursor', 'limit', 'status', 'system'] },
  getCode: { path: '/v1/codes/{code_id}', params: ['as_of', 'code_id'] },
  listChanges: { path: '/v1/changes', params: ['code_id', 'cursor', 'effective_from', 'effective_to', 'limit', 'release', 'system', 'type'] },
  listCodeChanges: { path: '/v1/codes/{code_id}/changes', params: ['code_id', 'cursor', 'effective_from', 'effective_to', 'limit', 'type'] },
  searchCodes: { path: '/v1/codes/search', params: ['cursor', 'limit', 'q', 'status', 'system'] },
  listSystems: { path: '/v1/systems', params: ['cursor', 'limit'] },
  getSystem: { path: '/v1/systems/{system}', params: ['system'] },
  listReleases: { path: '/v1/systems/{system}/releases', params: ['cursor', 'limit', 'system'] },
  batchGetCodes: { path: '/v1/codes/batch', params: [], method: 'post' },
  listChildren: { path: '/v1/codes/{code_id}/children', params: HIERARCHY },
  listDescendants: { path: '/v1/codes/{code_id}/descendants', params: HIERARCHY },
  listAncestors: { path: '/v1/codes/{code_id}/ancestors', params: HIERARCHY },
  listSystemRoots: { path: '/v1/systems/{system}/roots', params: ['cursor', 'limit', 'status', 'system'] },
};
const KEY = 'svc_live_' + 'q'.repeat(32);

let ctx: TestContext;
let doc: Doc;

before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha', note: 'an attribute' },
      { code: 'B', display: 'Beta' },
    ],
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
  await ctx.importRows([{ code: 'A', display: 'Alpha 2', status: 'deprecated' }], { system: 'demo', release: 'r2', effectiveDate: '2024-02-01' });
  const res = await ctx.get('/openapi.json');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  doc = res.json<Doc>();
});
after(() => ctx.close());

const operation = (id: string): Operation => (doc.paths[OPERATIONS[id]!.path] as Record<string, Operation>)[OPERATIONS[id]!.method ?? 'get']!;
const schemaOf = (op: Operation, status: string): Json | undefined => op.responses[status]?.content?.['application/json']?.schema;

/** Every $ref in a schema, in document order. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') out.push(inner);
      else refsIn(inner, out);
    }
  }
  return out;
}

describe('GET /openapi.json', () => {
  test('is an OpenAPI 3.1 document of exactly the /v1 endpoints', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.info.title.length > 0 && doc.info.version.length > 0);
    assert.equal(typeof doc.components, 'object');
    assert.ok(doc.components?.securitySchemes, 'the API key schemes are documented');
    assert.deepEqual(
      Object.keys(doc.paths).sort(),
      Object.values(OPERATIONS)
        .map((o) => o.path)
        .sort(),
    );
    for (const [id, { path, params, method }] of Object.entries(OPERATIONS)) {
      assert.deepEqual(Object.keys(doc.paths[path]!), [method ?? 'get'], `${path} documents one method`);
      const op = operation(id);
      assert.equal(op.operationId, id);
      assert.deepEqual((op.parameters ?? []).map((p) => p.name).sort(), params, id);
      for (const p of op.parameters ?? []) {
        assert.equal(p.in, path.includes(`{${p.name}}`) ? 'path' : 'query', `${id} ${p.name}`);
        assert.equal(p.required ?? false, p.in === 'path' || p.name === 'q', `${id} ${p.name} required`);
      }
      const statuses = [
        '200',
        '400',
        '401',
        '403',
        '429',
        '500',
        '503',
        ...(/\{(code_id|system)\}/.test(path) ? ['404'] : []),
        ...(method === 'post' ? ['413', '415'] : []),
      ];
      for (const status of statuses) {
        assert.ok(schemaOf(op, status), `${id} documents a JSON ${status}`);
        assert.equal(typeof op.responses[status]!.description, 'string');
      }
    }
  });

  test('every $ref resolves into components', () => {
    for (const ref of refsIn(doc)) {
      const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
      assert.ok(match, `${ref} points outside components/schemas`);
      assert.ok(doc.components?.schemas?.[match[1]!], `${ref} resolves`);
    }
  });

  test('every error response has the one error shape', () => {
    const shapes = new Set<string>();
    for (const id of Object.keys(OPERATIONS)) {
      for (const [status, response] of Object.entries(operation(id).responses)) {
        if (Number(status) >= 400) shapes.add(JSON.stringify(response.content?.['application/json']?.schema));
      }
    }
    assert.equal(shapes.size, 1);
    const compile = validatorFor(doc);
    const valid = compile(schemaOf(operation('getCode'), '404')!);
    assert.ok(valid({ error: { code: 'code_not_found', message: 'm', param: 'code_id', request_id: 'req_1' } }));
    assert.ok(!valid({ error: { code: 'code_not_found', message: 'm' } }), 'request_id is required');
    assert.ok(!valid({ error: { code: 'no_such_code', message: 'm', request_id: 'req_1' } }), 'codes are a closed set');
  });
});

describe('the guide and the examples', () => {
  test('info.description is a guide to authentication, paging, errors and limits, with curl examples', () => {
    const guide = doc.info.description ?? '';
    for (const heading of ['Authentication', 'Paging with cursors', 'Errors', 'Limits and the RateLimit headers']) {
      assert.match(guide, new RegExp(`^## ${heading}$`, 'm'), `the guide has a section "${heading}"`);
    }
    assert.match(guide, /curl -H "Authorization: Bearer \$KEY"/);
    assert.match(guide, /RateLimit-Policy: "minute";q=\d+;w=60/);
    for (const code of ERROR_CODES) assert.ok(guide.includes(`\`${code}\``), `the guide's error table lists ${code}`);
    const tags = doc.tags ?? [];
    assert.deepEqual(
      tags.map((t) => t.name),
      ['codes', 'hierarchy', 'changes', 'systems'],
    );
    for (const tag of tags) assert.ok(tag.description.length > 80, `tag ${tag.name} is described`);
  });

  test('the guide names every method the API answers, and a 400 names invalid_body only where a body is read', () => {
    const opening = (doc.info.description ?? '').split('\n\n')[0]!;
    for (const [id, { path, method }] of Object.entries(OPERATIONS)) {
      if (method !== undefined) assert.ok(opening.includes(`\`${method.toUpperCase()} ${path}\``), `the guide's opening names ${id}`);
      const op = operation(id);
      const description = op.responses['400']!.description!;
      assert.equal(description.includes('`invalid_body`'), op.requestBody !== undefined, `${id} 400: ${description}`);
    }
  });

  test('every response of every operation has an example that its schema accepts', () => {
    const compile = validatorFor(doc);
    for (const id of Object.keys(OPERATIONS)) {
      for (const [status, response] of Object.entries(operation(id).responses)) {
        // A 304 has no body, so no example: that it has none is checked by test/http/conditional.test.ts.
        if (status === '304') {
          assert.equal(response.content, undefined, `${id} 304 has a body`);
          continue;
        }
        const media = response.content!['application/json']! as { schema: Json; example?: unknown; examples?: Record<string, { value: unknown }> };
        const examples =
          media.example !== undefined
            ? { example: media.example }
            : Object.fromEntries(Object.entries(media.examples ?? {}).map(([name, e]) => [name, e.value]));
        assert.ok(Object.keys(examples).length > 0, `${id} ${status} has an example`);
        const validate = compile(media.schema);
        for (const [name, value] of Object.entries(examples)) {
          assert.ok(validate(value), `${id} ${status} ${name}: ${JSON.stringify(validate.errors)}`);
          if (Number(status) >= 400) {
            const code = (value as { error: { code: ErrorCode } }).error.code;
            assert.equal(name, code, `${id} ${status}: examples are named by their code`);
            assert.equal(ERROR_STATUS[code], Number(status), `${id}: ${code} is answered with ${ERROR_STATUS[code]}, not ${status}`);
            assert.ok(response.description!.includes(`\`${code}\``), `${id} ${status}'s description names ${code}`);
          }
        }
      }
    }
  });

  test("each operation's unknown_parameter example is what the operation answers to ?offset=1", async () => {
    for (const [id, { path, method }] of Object.entries(OPERATIONS)) {
      const media = operation(id).responses['400']!.content!['application/json']! as { examples: Record<string, { value: { error: { message: string } } }> };
      const url = `${path.replace('{code_id}', 'demo%3AA').replace('{system}', 'demo')}?${id === 'searchCodes' ? 'q=alpha&' : ''}offset=1`;
      const res = await ctx.request({ method: (method ?? 'get').toUpperCase(), url, ...(method === 'post' ? { payload: { ids: ['demo:A'] } } : {}) });
      assert.equal(res.statusCode, 400, `${id}: ${res.body}`);
      assert.equal(media.examples.unknown_parameter!.value.error.message, res.json().error.message, id);
    }
  });

  test("each operation's 400 and 404 examples are codes it answers, in the words it answers them with", async () => {
    type Example = { value: { error: { code: ErrorCode; message: string; param?: string } } };
    const examplesOf = (id: string, status: string) =>
      (operation(id).responses[status]?.content?.['application/json'] as { examples?: Record<string, Example> } | undefined)?.examples ?? {};
    /** A request of the operation that provokes the example's error. */
    const provoking = (id: string, { code, param }: Example['value']['error']): InjectOptions => {
      const { path, method = 'get' } = OPERATIONS[id]!;
      const at = (codeId: string, system: string) => path.replace('{code_id}', codeId).replace('{system}', system);
      const url = at('demo%3AA', 'demo');
      const q = id === 'searchCodes' ? 'q=alpha&' : '';
      const request = { method: method.toUpperCase(), url, ...(method === 'post' ? { payload: { ids: ['demo:A'] } } : {}) };
      switch (`${code} ${param ?? ''}`) {
        case 'invalid_parameter limit':
          return { ...request, url: `${url}?${q}limit=0` };
        case 'invalid_parameter as_of':
          return { ...request, url: `${url}?as_of=2024-02-30` };
        case 'invalid_parameter ids':
          return { ...request, payload: { ids: Array.from({ length: 201 }, (_, i) => `demo:${i}`) } };
        case 'invalid_parameter code_id':
          return { ...request, url: at('%ZZ', 'demo') };
        case 'invalid_parameter system':
          return { ...request, url: at('demo%3AA', '%ZZ') };
        case 'unknown_parameter offset':
          return { ...request, url: `${url}?${q}offset=1` };
        case 'invalid_cursor cursor':
          return { ...request, url: `${url}?${q}cursor=forged` };
        case 'invalid_body ':
          return { ...request, payload: '{"ids": [', headers: { 'content-type': 'application/json' } };
        case 'api_key_in_query ':
          return { ...request, url: `${url}?${q}key=${KEY}` };
        case 'code_not_found code_id':
          return { ...request, url: at('iso4217%3AXYZ', 'demo') };
        case 'system_not_found system':
          return { ...request, url: at('demo%3AA', 'iso4218') };
        default:
          assert.fail(`${id}: no request provokes its example ${code} (param ${param})`);
      }
    };
    for (const [id, { path, params }] of Object.entries(OPERATIONS)) {
      for (const status of ['400', '404']) {
        for (const { value } of Object.values(examplesOf(id, status))) {
          const res = await ctx.request(provoking(id, value.error));
          assert.equal(res.statusCode, Number(status), `${id} ${value.error.code}: ${res.body}`);
          const { code, message, param } = res.json<Example['value']>().error;
          assert.deepEqual({ code, message, param }, { code: value.error.code, message: value.error.message, param: value.error.param }, id);
        }
      }
      const codes = (status: string) => Object.keys(examplesOf(id, status));
      assert.equal(examplesOf(id, '400').invalid_parameter?.value.error.param === 'limit', params.includes('limit'), `${id}: invalid_parameter on limit`);
      assert.equal(codes('400').includes('invalid_cursor'), params.includes('cursor'), `${id}: invalid_cursor`);
      assert.deepEqual(
        codes('404'),
        [...(path.includes('{code_id}') ? ['code_not_found'] : []), ...(path.includes('{system}') ? ['system_not_found'] : [])],
        `${id}: 404 examples`,
      );
      for (const status of ['400', '404']) {
        const description = operation(id).responses[status]?.description ?? '';
        for (const code of ERROR_CODES) {
          if (ERROR_STATUS[code] === Number(status))
            assert.equal(description.includes(`\`${code}\``), codes(status).includes(code), `${id} ${status}: ${description}`);
        }
      }
    }
  });

  test("each operation's 403 example is what the gate answers a key on the plan it names", async () => {
    type Refusal = { value: { error: { message: string } } };
    const refusals = Object.keys(OPERATIONS).map((id) => {
      const media = operation(id).responses['403']!.content!['application/json'] as { examples: Record<string, Refusal> };
      const { message } = media.examples.endpoint_not_available_on_plan!.value.error;
      const [, endpoint, plan] = /^This endpoint \(([a-z.]+)\) is not part of the ([a-z0-9_-]+) plan\./.exec(message)!;
      return { id, message, endpoint: endpoint as EndpointName, plan: plan! };
    });
    const seeded = DEFAULT_PLANS.map((p) => p.name);
    for (const { endpoint, plan } of refusals) {
      const lacking = DEFAULT_PLANS.filter((p) => !p.endpoints.includes(endpoint)).map((p) => p.name);
      // A plan of an operator's only where every seeded plan includes the endpoint.
      assert.ok(lacking.length === 0 ? !seeded.includes(plan) : lacking.includes(plan), `${endpoint}: the ${plan} plan`);
    }
    // Each plan an example names, with a key: an operator's is made without the endpoints its examples say it lacks.
    const keys = new Map<string, string>();
    for (const plan of new Set(refusals.map((r) => r.plan))) {
      if (!seeded.includes(plan)) {
        const lacks = new Set(refusals.filter((r) => r.plan === plan).map((r) => r.endpoint));
        await setPlan(ctx.deps.admin, {
          name: plan,
          endpoints: ENDPOINTS.filter((e) => !lacks.has(e)),
          ratePerMinute: 600,
          monthlyQuota: null,
          testKeysAllowed: true,
        });
      }
      const org = await createOrg(ctx.deps.admin, `on-${plan}`, plan);
      keys.set(plan, (await createKey(ctx.deps.admin, org, 'live', 'refused')).key);
    }
    for (const { id, message, plan } of refusals) {
      const { path, method = 'get' } = OPERATIONS[id]!;
      const res = await ctx.request({
        method: method.toUpperCase(),
        url: path.replace('{code_id}', 'demo%3AA').replace('{system}', 'demo'),
        headers: { authorization: `Bearer ${keys.get(plan)!}` },
        ...(method === 'post' ? { payload: { ids: ['demo:A'] } } : {}),
      });
      assert.equal(res.statusCode, 403, `${id}: ${res.body}`);
      // The gate names only the seeded plans that include it: not the context's own test-all, nor the plans made above.
      assert.equal(res.json<{ error: { message: string } }>().error.message, message, id);
    }
  });

  test('every operation documents the headers a client acts on', () => {
    for (const id of Object.keys(OPERATIONS)) {
      const { responses } = operation(id);
      const headers = (status: string) => Object.keys((responses[status] as { headers?: Json }).headers ?? {});
      for (const status of Object.keys(responses)) assert.ok(headers(status).includes('Request-Id'), `${id} ${status} Request-Id`);
      for (const status of ['200', '429'])
        assert.ok(headers(status).includes('RateLimit') && headers(status).includes('RateLimit-Policy'), `${id} ${status} RateLimit`);
      for (const status of ['429', '503']) assert.ok(headers(status).includes('Retry-After'), `${id} ${status} Retry-After`);
      // Any 200 of 1 024 characters or more, a GET's or the batch's, is compressed for a client that accepts it.
      for (const name of ['Content-Encoding', 'Vary']) assert.ok(headers('200').includes(name), `${id} 200 ${name}`);
    }
  });

  test('a compressed 200 carries only headers its operation documents', async () => {
    // Headers of the connection and the framing, not of the operation.
    const transport = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
    const compressed: string[] = [];
    for (const [id, { path, method }] of Object.entries(OPERATIONS)) {
      const url = `${path.replace('{code_id}', 'demo%3AA').replace('{system}', 'demo')}${id === 'searchCodes' ? '?q=alpha' : ''}`;
      // Ids not found are listed back, so a batch of them is large enough to be compressed.
      const ids = Array.from({ length: 100 }, (_, i) => `demo:missing-${i}`);
      const res = await ctx.request({
        method: (method ?? 'get').toUpperCase(),
        url,
        headers: { 'accept-encoding': 'br, gzip' },
        ...(method === 'post' ? { payload: { ids } } : {}),
      });
      assert.equal(res.statusCode, 200, `${id}: ${res.body}`);
      if (res.headers['content-encoding'] === undefined) continue;
      compressed.push(id);
      const documented = Object.keys((operation(id).responses['200'] as { headers?: Json }).headers ?? {}).map((name) => name.toLowerCase());
      for (const name of Object.keys(res.headers)) if (!transport.has(name)) assert.ok(documented.includes(name), `${id} 200 sends ${name}, undocumented`);
    }
    assert.ok(compressed.includes('batchGetCodes'), `compressed: ${compressed.join(', ')}`);
  });
});

test("a change's before and after hold only fields of a code", () => {
  const validate = validatorFor(doc)(schemaOf(operation('listChanges'), '200')!);
  const change = {
    object: 'change',
    id: 2,
    code_id: 'demo:A',
    type: 'revised',
    effective_date: '2024-02-01',
    release: 'r2',
    fields: ['display'],
    before: { display: 'Alpha' },
    after: { display: 'Alpha 2' },
    recorded_at: '2024-02-01T10:00:00.000Z',
  };
  const pageOf = (c: unknown) => ({ data: [c], pagination: { has_more: false } });
  assert.ok(validate(pageOf(change)), JSON.stringify(validate.errors));
  assert.ok(!validate(pageOf({ ...change, before: { display: 'Alpha', colour: 'red' } })), 'before admits any key');
  assert.ok(!validate(pageOf({ ...change, after: { code: 'B' } })), 'after admits any key');
});

describe('real responses validate against the document', () => {
  let compile: (schema: Json) => ValidateFunction;
  before(() => {
    compile = validatorFor(doc);
  });

  function assertDocumented(id: string, res: LightMyRequestResponse, expectedStatus: number): void {
    assert.equal(res.statusCode, expectedStatus, res.body);
    const schema = schemaOf(operation(id), String(res.statusCode));
    assert.ok(schema, `${id} does not document ${res.statusCode}`);
    const validate = compile(schema);
    assert.ok(validate(res.json()), `${id} ${res.statusCode}: ${JSON.stringify(validate.errors)}\n${res.body}`);
  }

  const cursorFrom = async (url: string) => encodeURIComponent((await ctx.get(url)).json().pagination.next_cursor);

  test('pages of codes and changes, and one code', async () => {
    assertDocumented('listCodes', await ctx.get('/v1/codes?limit=1'), 200);
    assertDocumented('listCodes', await ctx.get(`/v1/codes?limit=1&cursor=${await cursorFrom('/v1/codes?limit=1')}`), 200);
    assertDocumented('listCodes', await ctx.get('/v1/codes?status=retired'), 200);
    assertDocumented('getCode', await ctx.get('/v1/codes/demo%3AA'), 200);
    assertDocumented('listChanges', await ctx.get('/v1/changes?limit=2'), 200);
    assertDocumented('listChanges', await ctx.get('/v1/changes'), 200);
    assertDocumented('listCodeChanges', await ctx.get('/v1/codes/demo%3AA/changes?limit=1'), 200);
    assertDocumented('listCodeChanges', await ctx.get('/v1/codes/demo%3AA/changes'), 200);
  });

  test('each error the read side answers with', async () => {
    const cases: [string, string, number][] = [
      ['listCodes', '/v1/codes?limit=0', 400],
      ['listCodes', '/v1/codes?offset=10', 400],
      ['listCodes', '/v1/codes?cursor=forged', 400],
      ['listCodes', `/v1/codes?x=${KEY}`, 400],
      ['getCode', '/v1/codes/demo%3AZ', 404],
      ['getCode', '/v1/codes/demo%3AA?page=2', 400],
      ['listChanges', '/v1/changes?effective_from=2024-02-30', 400],
      ['listChanges', `/v1/changes?cursor=${await cursorFrom('/v1/codes?limit=1')}`, 400],
      ['listCodeChanges', '/v1/codes/demo%3AZ/changes', 404],
      ['listCodeChanges', '/v1/codes/demo%3AA/changes?type=deleted', 400],
    ];
    for (const [id, url, status] of cases) assertDocumented(id, await ctx.get(url), status);
    assertDocumented('listCodes', await ctx.get('/v1/codes', { authorization: `Bearer ${KEY}` }), 401);
  });

  test('errors outside any operation have the documented error shape too', async () => {
    const validate = compile(schemaOf(operation('listCodes'), '400')!);
    for (const res of [await ctx.get('/v1/nope'), await ctx.get('/nope'), await ctx.request({ method: 'DELETE', url: '/v1/codes' })]) {
      assert.ok(res.statusCode === 404 || res.statusCode === 405);
      assert.ok(validate(res.json()), `${res.statusCode}: ${JSON.stringify(validate.errors)}`);
    }
  });

  test('a 500', async () => {
    const failing = await createTestContext();
    try {
      (failing.store as unknown as { db: { exec(sql: string): void } }).db.exec('ALTER TABLE codes RENAME TO codes_elsewhere');
      assertDocumented('listCodes', await failing.get('/v1/codes'), 500);
    } finally {
      await failing.close();
    }
  });
});

test('GET /healthz answers 200', async () => {
  const res = await ctx.get('/healthz');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok' });
});
