/**
 * Part of the fuzzing over a real listening socket, with requests written
 * byte by byte (see fuzz/raw.ts) so that malformed HTTP reaches Node's parser:
 * no 5xx, no crash, no connection left without an answer, every answer in the
 * documented shape with a Request-Id. FUZZ_SEED and FUZZ_SOCKET_RUNS override
 * the seed and the number of requests.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { parseResponses, rawExchange } from '../helpers/raw-http.ts';
import { checkAnswer, Coverage, watchForCrashes } from './fuzz/oracle.ts';
import { rawRequestArbitrary, type RawRequest } from './fuzz/raw.ts';
import { fuzzTarget, type FuzzTarget } from './fuzz/target.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_SOCKET_RUNS ?? 1500);
const CONNECTIONS = 8;

let target: FuzzTarget;
let port: number;
before(async () => {
  target = await fuzzTarget();
  port = Number(new URL(await target.ctx.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
after(() => target.ctx.close());

async function exchange(raw: RawRequest, coverage: Coverage): Promise<void> {
  // The connection is not half-closed: Node drops requests still in flight when the client ends its side.
  const { text, closed } = await rawExchange(port, raw.bytes, { end: false, timeoutMs: raw.mutation.incomplete ? 1000 : 15_000 });
  if (!raw.mutation.incomplete) assert.ok(closed, 'the connection was left open');
  // A HEAD answer has no body, but the parser's refusal of a HEAD request, or a 100 Continue before it, may.
  const responses = parseResponses(text, () => (raw.head ? 'maybe' : false));
  if (!raw.mutation.incomplete) assert.ok(responses.length > 0, 'no answer');
  responses.forEach((res, i) => {
    const view = { status: res.status, header: (name: string) => res.headers.get(name), body: res.body };
    checkAnswer(raw.request, raw.request.url, view, coverage, raw.malformed || i > 0);
  });
}

test(`${RUNS} generated requests over a real socket, malformed HTTP included: every one answered, no 5xx, the documented shapes`, async (t) => {
  const samples = fc.sample(rawRequestArbitrary(target), { numRuns: RUNS, seed: SEED });
  const coverage = new Coverage();
  const crashes = watchForCrashes();
  const failures: string[] = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < samples.length) {
          const i = next++;
          const raw = samples[i]!;
          try {
            await exchange(raw, coverage);
          } catch (error) {
            const bytes = JSON.stringify(raw.bytes.subarray(0, 400).toString('latin1'));
            failures.push(`request #${i} (${raw.mutation.name}) ${bytes}: ${(error as Error).message.slice(0, 600)}`);
          }
        }
      }),
    );
  } finally {
    crashes.stop();
  }
  t.diagnostic(coverage.summary());
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} failures; reproduce with FUZZ_SEED=${SEED} FUZZ_SOCKET_RUNS=${RUNS}`);
  assert.deepEqual(crashes.problems, [], 'unhandled rejections or uncaught exceptions');
  for (const status of [200, 400, 401, 404, 405]) assert.ok(coverage.statuses.has(status), `no ${status} in ${coverage.summary()}`);
  assert.ok(coverage.htmlErrors > 0, 'no dashboard error page');
});
