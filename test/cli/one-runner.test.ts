/** Tests run the CLI through one helper (test/helpers/cli.ts), so its time limit and clean environment apply everywhere. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/cli.ts';

test('only test/helpers/cli.ts names the CLI entry point in code', () => {
  const testDir = join(ROOT, 'test');
  const files = readdirSync(testDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 50, `the test folder was read (${files.length} files)`);
  // A string that ends in codebook.js ('../../bin/codebook.js', join(ROOT, 'bin/codebook.js')), or the path as segments.
  const naming = /['"`][^'"`\n]*codebook\.js['"`]|['"`]bin['"`]\s*,\s*['"`]codebook\.js/;
  const self = relative(testDir, import.meta.filename);
  const offenders = files.filter((f) => f !== self && naming.test(readFileSync(join(testDir, f), 'utf8'))).map((f) => relative(ROOT, join(testDir, f)));
  assert.deepEqual(offenders, ['test/helpers/cli.ts'], 'run the CLI with runCodebook() from test/helpers/cli.ts');
});
