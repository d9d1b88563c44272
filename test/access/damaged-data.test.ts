/**
 * Stored data that no longer parses (a plan's endpoints edited by hand, a
 * half-written value) is the service's failure, not the client's: a logged
 * `500 internal_error` whose body names nothing inside, on a GET as on the
 * batch's POST with a valid body. Only the request's own body, as Fastify
 * parses it, is ever `400 invalid_body`. The damage is written into the real
 * SQLite file by another connection, as an operator's `sqlite3` would.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { serializers } from '../../src/http/logging.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bearer, orgOnPlan } from './helpers.ts';

let ctx: TestContext;
let app: FastifyInstance;
let headers: Record<string, string>;
const logged: { msg?: string; err?: { type?: string; message?: string }; request_id?: string }[] = [];

before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 't', release: 'r1', effectiveDate: '2024-01-01' });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(String(chunk)) as (typeof logged)[number]);
      done();
    },
  });
  app = await buildApp(ctx.deps, { logger: { level: 'error', serializers, stream } });
  await app.ready();
  ({ headers } = await orgOnPlan(ctx, 'damaged', { name: 'damaged-plan' }));
  // Served while the plan is whole.
  assert.equal((await app.inject({ method: 'GET', url: '/v1/codes/t:A', headers })).statusCode, 200);

  // The plan's endpoints, cut short by another connection to the file.
  const db = new DatabaseSync(join(ctx.dir, 'codebook.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('UPDATE plans SET endpoints = ? WHERE name = ?').run('["codes.list",', 'damaged-plan');
  } finally {
    db.close();
  }
});
after(async () => {
  await app?.close();
  await ctx?.close();
});

/** A 500 internal_error that says nothing of what failed inside, and the log line that does. */
function assertInternalError(res: LightMyRequestResponse): void {
  const error = assertError(res, 500, 'internal_error');
  assert.doesNotMatch(res.body, /JSON|body|Syntax|Unexpected|endpoints|plan/i, 'the body names nothing inside');
  assert.equal(res.headers['cache-control'], 'no-store');
  const line = logged.find((l) => l.request_id === res.headers['request-id']);
  assert.ok(line, `the failure is logged with its request id; logged: ${JSON.stringify(logged)}`);
  assert.equal(line.err?.type, 'SyntaxError', 'the log says what failed');
  assert.ok(error.message.includes('request_id'), error.message);
}

test('a GET answered over a plan whose stored JSON does not parse is a logged 500, not invalid_body', async () => {
  assertInternalError(await app.inject({ method: 'GET', url: '/v1/codes/t:A', headers }));
  assertInternalError(await app.inject({ method: 'GET', url: '/v1/codes?limit=1', headers }));
});

test('the batch with a valid body over the same plan is a logged 500 too', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/codes/batch',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ ids: ['t:A'] }),
  });
  assertInternalError(res);
});

test("the request's own body that is not JSON is still invalid_body, and other keys are served as before", async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/codes/batch',
    headers: { ...bearer(ctx.key), 'content-type': 'application/json' },
    payload: '{"ids": [',
  });
  assertError(res, 400, 'invalid_body');
  assert.equal((await app.inject({ method: 'GET', url: '/v1/codes/t:A', headers: bearer(ctx.key) })).statusCode, 200);
});
