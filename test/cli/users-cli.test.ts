/** The real operator CLI (bin/codebook.js) in a child process: `users create|link|list|disable`. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { createOrg, setPlan } from '../../src/services/access/admin.ts';
import { setPasswordWithToken, signIn } from '../../src/services/dashboard/users.ts';
import { runCodebook } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

const PUBLIC_URL = 'https://codebook.example.test';
const LINK = `${PUBLIC_URL}/dashboard/set-password?token=`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('codebook users', () => {
  let dir: string;
  let dbPath: string;

  function codebook(...args: string[]): Promise<Run> {
    return runCodebook(['users', ...args], { cwd: dir, settings: { DATABASE_URL: `sqlite:${dbPath}`, PUBLIC_URL, LOG_LEVEL: 'silent' } });
  }

  /** Runs a command that must succeed; returns its output. */
  async function ok(...args: string[]): Promise<string> {
    const run = await codebook(...args);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    return run.stdout;
  }

  /** The service over the same file, for what the CLI's output promises (the link works). */
  async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
    const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'silent' }));
    try {
      return await fn(deps);
    } finally {
      await deps.close();
    }
  }

  const tokenOf = (link: string) => (link.startsWith(LINK) ? link.slice(LINK.length) : assert.fail(`${link} is not a set-password link`));

  before(async () => {
    dir = tempDir('codebook-users-cli-');
    dbPath = join(dir, 'codebook.db');
    await withDeps(async (deps) => {
      await setPlan(deps.admin, { name: 'basic', endpoints: ['codes.list'], ratePerMinute: 60, monthlyQuota: 1000, testKeysAllowed: false });
      await createOrg(deps.admin, 'acme', 'basic');
      await createOrg(deps.admin, 'globex', 'basic');
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('create prints a one-time link under PUBLIC_URL, and --json gives it as link', async () => {
    const text = await ok('create', '--org', 'acme', '--email', 'Alice@Example.com');
    assert.match(text, /^User alice@example\.com created in acme\.\n/);
    assert.match(text, /valid 24 hours, until \d{4}-\d\d-\d\dT/);
    const printed = /^ {2}(\S+)$/m.exec(text)?.[1] ?? assert.fail(`no link in:\n${text}`);
    assert.match(tokenOf(printed), /^[\w-]{32,}$/);

    const json = JSON.parse(await ok('create', '--org', 'globex', '--email', 'bob@example.com', '--json'));
    assert.equal(json.email, 'bob@example.com');
    assert.equal(json.org, 'globex');
    assert.equal(json.password_set, false);
    const token = tokenOf(json.link);
    assert.notEqual(token, tokenOf(printed));

    // The link is the real thing: it sets bob's password.
    await withDeps(async (deps) => {
      await setPasswordWithToken(deps.admin, token, 'correct horse battery staple');
      assert.ok(await signIn(deps.admin, 'bob@example.com', 'correct horse battery staple', '127.0.0.1'));
    });
  });

  test('the database file does not hold the link tokens in plain text', async () => {
    const first = tokenOf(JSON.parse(await ok('create', '--org', 'acme', '--email', 'carol@example.com', '--json')).link);
    const second = tokenOf(JSON.parse(await ok('link', '--email', 'carol@example.com', '--json')).link);
    const files = readdirSync(dir).filter((f) => f.startsWith('codebook.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, f))));
    assert.ok(bytes.includes('carol@example.com'), 'the user is in the files read');
    for (const token of [first, second]) {
      assert.ok(!bytes.includes(token), 'token in plain text');
      assert.ok(!bytes.includes(Buffer.from(token, 'base64url')), 'token as raw bytes');
    }
  });

  test('link prints a fresh link for an existing user', async () => {
    await ok('create', '--org', 'acme', '--email', 'dave@example.com');
    const text = await ok('link', '--email', 'dave@example.com');
    assert.match(text, /^For dave@example\.com\.\n/);
    const token = tokenOf(/^ {2}(\S+)$/m.exec(text)?.[1] ?? assert.fail(text));
    await withDeps((deps) => setPasswordWithToken(deps.admin, token, 'a fresh long password'));
    const listed = JSON.parse(await ok('list', '--json')) as { email: string; password_set: boolean }[];
    assert.equal(listed.find((u) => u.email === 'dave@example.com')?.password_set, true);
  });

  test('list shows every user, or one organisation’s', async () => {
    await ok('create', '--org', 'globex', '--email', 'erin@example.com');
    const all = await ok('list');
    assert.match(all.split('\n')[0]!, /^EMAIL\s+ORG\s+PASSWORD SET\s+STATE\s+CREATED/);
    assert.match(all, /^erin@example\.com\s+globex\s+no\s+active\s/m);
    const acme = JSON.parse(await ok('list', '--org', 'acme', '--json')) as { email: string; org: string }[];
    assert.ok(acme.length > 0);
    assert.deepEqual([...new Set(acme.map((u) => u.org))], ['acme']);
    assert.ok(!acme.some((u) => u.email === 'erin@example.com'));
  });

  test('disable marks the user disabled; they get no new link and cannot sign in', async () => {
    const created = JSON.parse(await ok('create', '--org', 'acme', '--email', 'frank@example.com', '--json'));
    await withDeps((deps) => setPasswordWithToken(deps.admin, tokenOf(created.link), 'frank has a long password'));
    assert.match(await ok('disable', '--email', 'frank@example.com'), /frank@example\.com disabled/);
    assert.match(await ok('list'), /^frank@example\.com\s+acme\s+yes\s+disabled\s/m);
    const link = await codebook('link', '--email', 'frank@example.com');
    assert.notEqual(link.code, 0);
    assert.match(link.stderr, /disabled/);
    await withDeps(async (deps) => assert.equal(await signIn(deps.admin, 'frank@example.com', 'frank has a long password', '127.0.0.1'), null));
  });

  test('disabling a disabled user says so, exits 0, and changes nothing: its time and the audit log stay', async () => {
    await ok('create', '--org', 'acme', '--email', 'gina@example.com');
    const first = JSON.parse(await ok('disable', '--email', 'gina@example.com', '--json')) as { disabled_at: string; already_disabled: boolean };
    assert.equal(first.already_disabled, false);
    // The address as typed, in another case: the user is found as everywhere else, and still said to be disabled already.
    const again = await ok('disable', '--email', 'GINA@example.com');
    assert.equal(again, `user gina@example.com was already disabled at ${first.disabled_at}; nothing changed\n`);
    const json = JSON.parse(await ok('disable', '--email', 'gina@example.com', '--json')) as { disabled_at: string; already_disabled: boolean };
    assert.deepEqual([json.disabled_at, json.already_disabled], [first.disabled_at, true]);
    await withDeps(async (deps) => {
      const org = (await deps.store.access.getOrg('acme'))!;
      const entries = (await deps.store.dashboard.listAudit(org.id, 100)).filter((e) => e.action === 'user.disabled' && e.target === 'gina@example.com');
      assert.equal(entries.length, 1);
    });
  });

  test('bad arguments get one line on stderr and a non-zero exit', async () => {
    await ok('create', '--org', 'acme', '--email', 'taken@example.com');
    const cases: [string[], RegExp][] = [
      [['create', '--org', 'nope', '--email', 'x@example.com'], /no organisation "nope"/],
      [['create', '--org', 'acme', '--email', 'TAKEN@example.com'], /already exists/],
      [['create', '--org', 'acme', '--email', 'not-an-email'], /not an email address/],
      [['create', '--org', 'acme', '--email', 'two\nlines@example.com'], /not an email address/],
      [['create', '--org', 'acme'], /missing --email/],
      [['create', '--email', 'y@example.com'], /missing --org/],
      [['link', '--email', 'nobody@example.com'], /no user/],
      [['disable'], /missing --email/],
      [['create', '--org', 'acme', '--email', 'z@example.com', '--bogus'], /bogus/],
    ];
    for (const [args, message] of cases) {
      const run = await codebook(...args);
      const what = JSON.stringify(args);
      assert.notEqual(run.code, 0, what);
      assert.equal(run.stdout, '', what);
      assert.match(run.stderr, /^codebook: [^\n]+\n$/, `${what}: one line, got ${JSON.stringify(run.stderr)}`);
      assert.match(run.stderr, message, what);
      assert.doesNotMatch(run.stderr, /\bat .*:\d+:\d+/, `${what}: no stack trace`);
    }
    const list = JSON.parse(await ok('list', '--json')) as { email: string }[];
    assert.ok(!list.some((u) => /^[xyz]@example\.com$|two/.test(u.email)), 'no user was created');
  });
});
