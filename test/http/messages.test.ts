/**
 * Error messages that tell a client what was wrong and what to send instead,
 * with `param` naming the one parameter at fault.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { documentOf, operationsOf } from '../helpers/openapi.ts';
import { QUERY_SAMPLES, fillPath } from '../helpers/routes.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha' },
      { code: 'B/1', display: 'Beta one' },
    ],
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
  await ctx.importRows([{ code: 'A', display: 'Alpha, again' }], { system: 'demo', release: 'r2', effectiveDate: '2024-03-01' });
});
after(() => ctx.close());

function refusal(res: LightMyRequestResponse, status: number, code: string, param: string | undefined): string {
  assert.equal(res.statusCode, status, res.body);
  const { error } = res.json();
  assert.equal(error.code, code, res.body);
  assert.equal(error.param, param, res.body);
  return error.message as string;
}

describe('unknown_parameter', () => {
  test('a parameter that is not about paging lists what the endpoint accepts, without talking of offsets', async () => {
    const message = refusal(await ctx.get('/v1/codes?q=x'), 400, 'unknown_parameter', 'q');
    assert.match(message, /"q"/);
    assert.match(message, /GET \/v1\/codes accepts: limit, cursor, system, status, as_of\./);
    assert.doesNotMatch(message, /offset|page number|cursors only/i);
    const changes = refusal(await ctx.get('/v1/codes/demo%3AA/changes?system=demo'), 400, 'unknown_parameter', 'system');
    assert.match(changes, /GET \/v1\/codes\/\{code_id\}\/changes accepts: limit, cursor, type, effective_from, effective_to\./);
  });

  test('offset and page-number names get the cursor explanation', async () => {
    for (const name of ['offset', 'page', 'page_size', 'per_page', 'skip', 'pageSize']) {
      const message = refusal(await ctx.get(`/v1/changes?${name}=2`), 400, 'unknown_parameter', name);
      assert.match(message, /cursors only/, name);
      assert.match(message, /next_cursor as cursor/, name);
      assert.match(message, /GET \/v1\/changes accepts: .*cursor/, name);
    }
  });

  test('a name that differs only in case is pointed at the right one', async () => {
    assert.match(refusal(await ctx.get('/v1/codes?Limit=5'), 400, 'unknown_parameter', 'Limit'), /did you mean "limit"\?/);
  });

  test('the single-code endpoint says it does not page, and what it accepts', async () => {
    const message = refusal(await ctx.get('/v1/codes/demo%3AA?offset=1'), 400, 'unknown_parameter', 'offset');
    assert.match(message, /GET \/v1\/codes\/\{code_id\} does not page\. GET \/v1\/codes\/\{code_id\} accepts: as_of\./);
    assert.doesNotMatch(message, /next_cursor/);
  });
});

describe('invalid_parameter', () => {
  test('a parameter sent twice says so', async () => {
    for (const url of ['/v1/codes?limit=5&limit=6', '/v1/changes?limit=5&limit=6', '/v1/codes/demo%3AA/changes?limit=1&limit=1']) {
      assert.equal(refusal(await ctx.get(url), 400, 'invalid_parameter', 'limit'), 'The limit parameter was sent 2 times; send it once.');
    }
    assert.match(refusal(await ctx.get('/v1/codes?system=a&system=b&system=c'), 400, 'invalid_parameter', 'system'), /sent 3 times; send it once/);
    assert.match(
      refusal(await ctx.get('/v1/changes?effective_from=2024-01-01&effective_from=2024-02-01'), 400, 'invalid_parameter', 'effective_from'),
      /sent 2 times/,
    );
  });

  /** Every query parameter of every operation, and the URL that sends it (`name=…` given) beside the operation's required others. */
  function* eachQueryParameter(): Generator<{ name: string; method: string; url: (sent: string) => string }> {
    for (const { method, path, op } of operationsOf(documentOf(ctx.app))) {
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      for (const { name } of query) {
        const others = query.filter((p) => p.required && p.name !== name).map((p) => `${p.name}=${encodeURIComponent(QUERY_SAMPLES[p.name]!)}&`);
        yield { name, method: method.toUpperCase(), url: (sent) => `${fillPath(path)}?${others.join('')}${sent}` };
      }
    }
  }

  test('on every operation, each query parameter sent twice says so, whatever the parameter', async () => {
    let checked = 0;
    for (const { name, method, url } of eachQueryParameter()) {
      const twice = url(`${name}=2024-01-01&${name}=2024-01-01`);
      const res = await ctx.request({ method, url: twice });
      assert.equal(refusal(res, 400, 'invalid_parameter', name), `The ${name} parameter was sent 2 times; send it once.`, `${method} ${twice}`);
      checked++;
    }
    assert.ok(checked > 20, `${checked} parameters checked`);
  });

  test('on every operation, a query value with broken percent-encoding is refused naming its parameter, not read as literal text', async () => {
    let checked = 0;
    for (const { name, method, url } of eachQueryParameter()) {
      for (const broken of ['ok%20%FF', 'sao%20tome%E2', '100%', '%zz']) {
        const sent = url(`${name}=${broken}`);
        const res = await ctx.request({ method, url: sent });
        assert.match(refusal(res, 400, 'invalid_parameter', name), new RegExp(`^The ${name} parameter is not valid percent-encoding`), `${method} ${sent}`);
      }
      checked++;
    }
    assert.ok(checked > 20, `${checked} parameters checked`);
    // Well-formed escapes, a percent-encoded name, and a broken value of a parameter the route does not take are as before.
    assert.equal((await ctx.get('/v1/codes/search?q=demo%20alpha')).statusCode, 200);
    assert.equal((await ctx.get('/v1/codes?li%6Dit=2')).statusCode, 200);
    refusal(await ctx.get('/v1/codes?nosuch=%FF'), 400, 'unknown_parameter', 'nosuch');
  });

  test('a bad date names the format and echoes the value', async () => {
    for (const [url, param, value] of [
      ['/v1/changes?effective_from=2024-02-30', 'effective_from', '2024-02-30'],
      ['/v1/changes?effective_to=25.06.2024', 'effective_to', '25.06.2024'],
      ['/v1/codes/demo%3AA/changes?effective_from=yesterday', 'effective_from', 'yesterday'],
    ]) {
      const message = refusal(await ctx.get(url!), 400, 'invalid_parameter', param);
      assert.match(message, /YYYY-MM-DD/, url);
      assert.ok(message.includes(`got "${value}"`), `${url}: ${message}`);
    }
  });

  test('an enum names its values and the one sent', async () => {
    const message = refusal(await ctx.get('/v1/codes?status=gone'), 400, 'invalid_parameter', 'status');
    assert.equal(message, 'The status parameter must be one of: active, deprecated, retired; got "gone".');
  });

  test('a long value is cut short in the message', async () => {
    const message = refusal(await ctx.get(`/v1/changes?effective_to=${'9'.repeat(5000)}`), 400, 'invalid_parameter', 'effective_to');
    assert.ok(message.length < 300, message);
  });
});

describe('effective_from after effective_to', () => {
  test('is refused on both changes endpoints, naming both dates', async () => {
    for (const path of ['/v1/changes', '/v1/codes/demo%3AA/changes']) {
      const message = refusal(await ctx.get(`${path}?effective_from=2024-03-01&effective_to=2024-01-01`), 400, 'invalid_parameter', 'effective_from');
      assert.match(message, /2024-03-01/);
      assert.match(message, /2024-01-01/);
      assert.match(message, /effective_to/);
    }
  });

  test('equal dates are a one-day range, not an error', async () => {
    const res = await ctx.get('/v1/changes?effective_from=2024-03-01&effective_to=2024-03-01');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().data.map((c: { code_id: string }) => c.code_id),
      ['demo:A'],
    );
  });
});

describe('a raw "/" in a code id', () => {
  test('the 404 says to percent-encode it as %2F', async () => {
    for (const url of ['/v1/codes/demo:B/1', '/v1/codes/demo%3AB/1', '/v1/codes/demo:B/1/changes']) {
      const message = refusal(await ctx.get(url), 404, 'route_not_found', 'code_id');
      assert.match(message, /percent-encode each "\/" as %2F/, url);
    }
  });

  test('percent-encoded, the same code is found', async () => {
    const res = await ctx.get('/v1/codes/demo%3AB%2F1');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, 'demo:B/1');
  });

  test('a path elsewhere under /v1 gets no such hint', async () => {
    const message = refusal(await ctx.get('/v1/changes/1'), 404, 'route_not_found', undefined);
    assert.doesNotMatch(message, /%2F/);
  });
});
