/**
 * A bad value given to a command's flag is a usage error (exit 2) whose one
 * line names the flag, found before the database is opened: nothing is
 * created or written for a command that cannot run.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCodebook } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

let dir: string;
before(() => {
  dir = tempDir('codebook-bad-values-');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command on a database file that is not there yet. */
async function onNoDatabase(...args: string[]) {
  const db = join(dir, `${args.slice(0, 2).join('-')}.db`);
  const run = await runCodebook(args, { cwd: dir, settings: { DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' } });
  return { ...run, created: existsSync(db) };
}

test('keys create --expires-at, keys roll --grace and usage --month: a bad value names its flag, exits 2 and opens no database', async () => {
  const cases: [string[], RegExp][] = [
    [['keys', 'create', '--org', 'acme', '--expires-at', 'soon'], /^codebook: --expires-at: expiry "soon" must be never, a number of days/],
    [['keys', 'create', '--org', 'acme', '--expires-at', '2020-01-01'], /^codebook: --expires-at: expiry "2020-01-01" is not in the future\n$/],
    [['keys', 'roll', 'key_x', '--grace', '2h'], /^codebook: --grace: grace period "2h" must be one of now, 1h, 24h, 7d\n$/],
    [['usage', '--org', 'acme', '--month', '2026-13'], /^codebook: --month must be a month, YYYY-MM \(got "2026-13"\)/],
  ];
  for (const [args, message] of cases) {
    const run = await onNoDatabase(...args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.equal(run.stdout, '', args.join(' '));
    assert.equal(run.created, false, `${args.join(' ')} created the database`);
  }
});

test('keys create --expires-at "" (an unset variable in a script) is refused, not read as a key that never expires', async () => {
  const run = await onNoDatabase('keys', 'create', '--org', 'acme', '--expires-at', '');
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /^codebook: --expires-at needs a value: never, a number of days/);
  assert.equal(run.stdout, '');
  assert.equal(run.created, false);
});

test('a flag whose value starts with a dash (--codes -1) is refused in one line', async () => {
  const run = await onNoDatabase('generate', '--codes', '-1', '--changes', '100', '--dates', '1', '--out', 'out');
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /^codebook: Option '--codes' argument is ambiguous\. .* \(see: codebook generate --help\)\n$/);
  assert.equal(run.stderr.split('\n').length, 2, run.stderr);
});
