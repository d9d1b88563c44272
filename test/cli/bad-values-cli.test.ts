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

/** The command exits 2 with the message on stderr, prints nothing on stdout and creates no database. */
async function assertRefused(args: string[], message: RegExp): Promise<void> {
  const run = await onNoDatabase(...args);
  assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
  assert.match(run.stderr, message, args.join(' '));
  assert.equal(run.stdout, '', args.join(' '));
  assert.equal(run.created, false, `${args.join(' ')} created the database`);
}

test('keys create --expires-at, keys roll --grace and usage --month: a bad value names its flag, exits 2 and opens no database', async () => {
  const cases: [string[], RegExp][] = [
    [['keys', 'create', '--org', 'acme', '--expires-at', 'soon'], /^codebook: --expires-at: expiry "soon" must be never, a number of days/],
    [['keys', 'create', '--org', 'acme', '--expires-at', '2020-01-01'], /^codebook: --expires-at: expiry "2020-01-01" is not in the future\n$/],
    [['keys', 'roll', 'key_x', '--grace', '2h'], /^codebook: --grace: grace period "2h" must be one of now, 1h, 24h, 7d\n$/],
    [['usage', '--org', 'acme', '--month', '2026-13'], /^codebook: --month must be a month, YYYY-MM \(got "2026-13"\)/],
  ];
  for (const [args, message] of cases) await assertRefused(args, message);
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

test('a flag or a word an action does not take is refused, not silently ignored, before the database is opened', async () => {
  const cases: [string[], RegExp][] = [
    [['orgs', 'list', '--plan', 'pro'], /^codebook: codebook orgs list takes no --plan \(see: codebook orgs --help\)\n$/],
    [['orgs', 'list', 'extra'], /^codebook: unexpected argument "extra" after codebook orgs list/],
    [['orgs', 'set-plan', 'acme', 'pro', 'more'], /unexpected argument "more" after codebook orgs set-plan/],
    [['keys', 'create', '--org', 'acme', '--grace', '1h'], /codebook keys create takes no --grace/],
    [['keys', 'revoke', 'key_x', '--org', 'acme'], /codebook keys revoke takes no --org/],
    [['keys', 'list', '--org', 'acme', 'extra'], /unexpected argument "extra" after codebook keys list/],
    [['users', 'list', 'extra', '--email', 'a@example.com'], /codebook users list takes no --email/],
    [['users', 'disable', '--email', 'a@example.com', 'extra'], /unexpected argument "extra" after codebook users disable/],
    [['plans', 'list', 'extra'], /unexpected argument "extra" after codebook plans list/],
    [['plans', 'list', '--endpoints', 'codes.get'], /codebook plans list takes no --endpoints/],
    [['systems', 'show', 'x', '--name', 'y'], /codebook systems show takes no --name/],
    [['systems', 'list', 'x'], /unexpected argument "x" after codebook systems list/],
    [['usage', '--org', 'acme', 'extra'], /unexpected argument "extra" after codebook usage/],
    [['demo', 'extra'], /unexpected argument "extra" after codebook demo/],
  ];
  for (const [args, message] of cases) await assertRefused(args, message);
});
