/**
 * A request admitted in one month and answered in the next is in the month
 * that counted it, in the limits and in usage alike, so the month's report
 * adds up: counted toward the allowance = its ok and client_error requests.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import type { Organisation } from '../../src/domain/access.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, usageReport } from '../../src/services/access/admin.ts';
import { FaultyStore } from '../helpers/faulty-store.ts';
import { importRowsInto, TestClock, tempDir } from '../helpers/context.ts';

const dir = tempDir();
const clock = new TestClock();
let store: FaultyStore;
let deps: Deps;
let app: FastifyInstance;
let org: Organisation;
let headers: Record<string, string>;

before(async () => {
  const path = join(dir, 'codebook.db');
  // No read cache: every request reads the store, where the test's clock moves.
  store = new FaultyStore({ path });
  deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent', READ_CACHE_MB: '0' }), { now: clock.now, store });
  app = await buildApp(deps);
  await importRowsInto(store, dir, [{ code: 'A', display: 'Alpha' }], { system: 't', release: 'r1', effectiveDate: '2024-01-01' });
  org = await createOrg(deps.admin, 'midnight', 'pro');
  headers = { authorization: `Bearer ${(await createKey(deps.admin, org, 'live', 'k')).key}` };
});
after(async () => {
  await app?.close();
  await deps?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a request that runs across midnight at the end of a month is in the month it was admitted in', async () => {
  clock.set('2026-03-31T23:59:59.900Z');
  assert.equal((await app.inject({ url: '/v1/codes/t:A', headers })).statusCode, 200);
  // Admitted at 23:59:59.950, answered in April.
  clock.set('2026-03-31T23:59:59.950Z');
  store.duringRead = () => clock.set('2026-04-01T00:00:00.200Z');
  try {
    assert.equal((await app.inject({ url: '/v1/codes/t:A', headers })).statusCode, 200);
  } finally {
    store.duringRead = null;
  }
  await deps.limiter.flush();
  await deps.usage.flush();
  const march = await usageReport(deps.admin, org, '2026-03');
  assert.equal(march.counted, 2);
  assert.deepEqual(march.byOutcome, { ok: 2 }, 'both requests are in March, where the allowance counted them');
  const april = await usageReport(deps.admin, org, '2026-04');
  assert.equal(april.counted, 0);
  assert.deepEqual(april.byOutcome, {});
});
