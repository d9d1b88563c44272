/**
 * In CI nothing that needs PostgreSQL, Redis or chromium can skip quietly:
 * .ci/run sets CI=1 itself before the tests, and under CI the helpers that
 * decide a skip throw instead.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/cli.ts';
import { requiredInCi } from './helpers/services.ts';

test('.ci/run exports CI=1 before it runs the tests, whatever the host sets', () => {
  const lines = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n');
  const exported = lines.findIndex((l) => /^export CI=1$/.test(l.trim()));
  const tests = lines.findIndex((l) => /^npm test\b/.test(l.trim()));
  assert.ok(exported >= 0, '.ci/run has a line "export CI=1"');
  assert.ok(tests > exported, '"export CI=1" comes before "npm test"');
  assert.ok(!lines.slice(exported + 1).some((l) => /\bCI=(''|""|0)?\s*$|unset CI\b/.test(l)), 'nothing unsets CI afterwards');
});

test('under CI a missing service fails the run; elsewhere it skips with the reason', () => {
  const saved = process.env.CI;
  try {
    process.env.CI = '1';
    assert.throws(() => requiredInCi(false, 'PostgreSQL not reachable'), /PostgreSQL not reachable, and CI is set/);
    assert.equal(requiredInCi(true, 'PostgreSQL not reachable'), false);
    delete process.env.CI;
    assert.equal(requiredInCi(false, 'PostgreSQL not reachable'), 'PostgreSQL not reachable');
  } finally {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  }
});
