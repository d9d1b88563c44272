/**
 * Fuzzing the whole HTTP surface through inject(): at least 10 000 generated
 * requests over every route the app lists, plus unknown paths (see
 * fuzz/requests.ts). A fixed seed makes a failure reproducible; FUZZ_SEED and
 * FUZZ_RUNS override it and the number of requests.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { checkAnswer, Coverage, watchForCrashes } from './fuzz/oracle.ts';
import { injectable, injectOptions, requestArbitrary } from './fuzz/requests.ts';
import { fuzzTarget, type FuzzTarget } from './fuzz/target.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

let target: FuzzTarget;
before(async () => {
  target = await fuzzTarget();
});
after(() => target.ctx.close());

test('the routes come from the app itself', () => {
  const paths = target.routes.map((r) => r.path);
  for (const path of [
    '/v1/codes',
    '/v1/codes/:code_id',
    '/v1/codes/:code_id/changes',
    '/v1/changes',
    '/dashboard/login',
    '/dashboard/keys/:id/revoke',
    '/healthz',
  ]) {
    assert.ok(paths.includes(path), `${path} is not among ${paths.join(' ')}`);
  }
  assert.ok(target.routes.find((r) => r.path === '/v1/codes')!.methods.includes('PROPFIND'));
});

test(`${RUNS} generated requests over every route: no 5xx, no crash, every error in the documented shape with a Request-Id`, async (t) => {
  const coverage = new Coverage();
  const crashes = watchForCrashes();
  try {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(target), async (request) => {
        fc.pre(injectable(request.url));
        const res = await target.ctx.app.inject(injectOptions(request));
        const view = { status: res.statusCode, header: (name: string) => res.headers[name]?.toString(), body: res.body };
        checkAnswer(request, res.raw.req.url ?? request.url, view, coverage);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  } catch (error) {
    t.diagnostic(`reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
    throw error;
  } finally {
    crashes.stop();
  }
  t.diagnostic(coverage.summary());
  assert.deepEqual(crashes.problems, [], 'unhandled rejections or uncaught exceptions');
  // The run got past the first checks everywhere: successes, and each kind of refusal.
  for (const status of [200, 303, 400, 401, 404, 405]) assert.ok(coverage.statuses.has(status), `no ${status} in ${coverage.summary()}`);
  for (const code of [
    'api_key_in_query',
    'invalid_api_key',
    'invalid_parameter',
    'unknown_parameter',
    'invalid_cursor',
    'route_not_found',
    'method_not_allowed',
  ]) {
    assert.ok(coverage.codes.has(code), `no ${code} in ${coverage.summary()}`);
  }
  assert.ok(coverage.htmlErrors > 0, 'no dashboard error page');
});
