/**
 * The operator CLI for access control, as a real process on a real database
 * file: plans, organisations, keys (shown once, never listed), usage, and a
 * one-line error with a non-zero exit for every bad argument.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createOrg, setPlan } from '../../src/services/access/admin.ts';
import { cliJson, runCli, type CliResult } from '../access/processes.ts';
import { runCodebook } from '../helpers/cli.ts';
import { ADMIN_URL } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'codebook-access-cli-'));
const db = join(dir, 'codebook.db');

// Each test stands alone: acme on bronze (no test keys) exists from the start.
before(async () => {
  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' }));
  try {
    await setPlan(deps.admin, { name: 'bronze', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 30, monthlyQuota: 5000, testKeysAllowed: false });
    await createOrg(deps.admin, 'acme', 'bronze');
  } finally {
    await deps.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(db, args);

function ok(r: CliResult): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  assert.equal(r.stderr, '');
  return r.stdout;
}

/** Runs the checks a few at a time; every one finishes (no process outlives the test), then the first failure is thrown. */
async function all<T>(items: T[], run: (item: T) => Promise<void>, width = 4): Promise<void> {
  const queue = [...items];
  const failures: unknown[] = [];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item).catch((error: unknown) => failures.push(error));
    }),
  );
  if (failures.length > 0) throw failures[0];
}

interface JsonPlan {
  name: string;
  endpoints: string[];
  ratePerMinute: number;
  monthlyQuota: number | null;
  testKeysAllowed: boolean;
}
interface JsonOrg {
  slug: string;
  plan: string;
  id: string;
}
interface JsonKey {
  id: string;
  display_prefix: string;
  name: string;
  mode: string;
  state: string;
  org: string;
}

test('plans set and list, with the seeded defaults', async () => {
  const saved = await cliJson<JsonPlan>(db, [
    'plans',
    'set',
    'copper',
    '--endpoints',
    'codes.list,codes.get',
    '--rate-per-minute',
    '30',
    '--monthly-quota',
    '5000',
    '--no-test-keys',
  ]);
  assert.deepEqual(saved, { name: 'copper', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 30, monthlyQuota: 5000, testKeysAllowed: false });
  const unlimited = await cliJson<JsonPlan>(db, [
    'plans',
    'set',
    'silver',
    '--endpoints',
    'changes.list,codes.list',
    '--rate-per-minute',
    '100',
    '--monthly-quota',
    'unlimited',
  ]);
  assert.deepEqual(unlimited, { name: 'silver', endpoints: ['codes.list', 'changes.list'], ratePerMinute: 100, monthlyQuota: null, testKeysAllowed: true });

  const plans = await cliJson<JsonPlan[]>(db, ['plans', 'list']);
  assert.deepEqual(
    plans.map((p) => p.name).filter((n) => n !== 'bronze'),
    ['copper', 'enterprise', 'free', 'pro', 'silver'],
  );
  assert.deepEqual(
    plans.find((p) => p.name === 'free'),
    {
      name: 'free',
      endpoints: ['codes.list', 'codes.get', 'codes.search', 'systems.list', 'codes.hierarchy'],
      ratePerMinute: 60,
      monthlyQuota: 10000,
      testKeysAllowed: true,
    },
  );
  const text = ok(await cli('plans', 'list'));
  assert.match(text, /^copper\s+codes\.list,codes\.get\s+30\s+5000\s+no$/m);
  assert.match(text, /^silver\s+codes\.list,changes\.list\s+100\s+unlimited\s+yes$/m);
});

test('orgs create, set-plan and list', async () => {
  const created = await cliJson<JsonOrg>(db, ['orgs', 'create', 'globex', '--plan', 'free']);
  assert.deepEqual([created.slug, created.plan], ['globex', 'free']);
  assert.match(created.id, /^org_/);
  const moved = await cliJson<JsonOrg>(db, ['orgs', 'set-plan', 'globex', 'pro']);
  assert.deepEqual([moved.slug, moved.plan, moved.id], ['globex', 'pro', created.id]);
  const orgs = await cliJson<JsonOrg[]>(db, ['orgs', 'list']);
  assert.deepEqual(
    orgs.filter((o) => o.slug !== 'team').map((o) => [o.slug, o.plan]),
    [
      ['acme', 'bronze'],
      ['globex', 'pro'],
    ],
  );
  assert.match(ok(await cli('orgs', 'list')), /^globex\s+pro\s+org_/m);
});

test('keys create prints the key once; --json has exactly its seven fields; list and revoke never show it', async () => {
  ok(await cli('orgs', 'create', 'team', '--plan', 'pro'));
  const human = ok(await cli('keys', 'create', '--org', 'team', '--name', 'production'));
  const shown = human.match(/svc_live_[A-Za-z0-9]{32}/g);
  assert.equal(shown?.length, 1, human);
  const humanKey = shown[0];

  const json = await cliJson<Record<string, string>>(db, ['keys', 'create', '--org', 'team', '--test']);
  assert.deepEqual(Object.keys(json).sort(), ['created_at', 'display_prefix', 'expires_at', 'id', 'key', 'mode', 'org']);
  assert.match(json.key!, /^svc_test_[A-Za-z0-9]{32}$/);
  assert.equal(json.display_prefix, json.key!.slice(0, 13));
  assert.equal(json.mode, 'test');
  assert.equal(json.org, 'team');
  assert.match(json.id!, /^key_/);
  assert.ok(!Number.isNaN(Date.parse(json.created_at!)));

  const revoked = await cliJson<JsonKey>(db, ['keys', 'revoke', json.id!]);
  assert.equal(revoked.state, 'revoked');
  assert.ok(!JSON.stringify(revoked).includes(json.key!.slice(9)));

  const listed = await cliJson<JsonKey[]>(db, ['keys', 'list', '--org', 'team']);
  assert.deepEqual(
    listed.map((k) => [k.mode, k.state]),
    [
      ['live', 'active'],
      ['test', 'revoked'],
    ],
  );
  assert.equal(listed[0]!.name, 'production');
  const listText = ok(await cli('keys', 'list', '--org', 'team'));
  for (const out of [JSON.stringify(listed), listText]) {
    assert.ok(!out.includes(humanKey.slice(9)) && !out.includes(json.key!.slice(9)), 'keys list shows a full key');
  }
  assert.ok(listText.includes(`${humanKey.slice(0, 13)}…`));
});

test('revoking a revoked key says so on one line, exits 0, and records one revocation', async () => {
  ok(await cli('orgs', 'create', 'twice', '--plan', 'pro'));
  const created = await cliJson<Record<string, string>>(db, ['keys', 'create', '--org', 'twice']);
  const first = await cliJson<JsonKey & { already_revoked: boolean; revoked_at: string }>(db, ['keys', 'revoke', created.id!]);
  assert.equal(first.already_revoked, false);
  const again = ok(await cli('keys', 'revoke', created.id!));
  assert.equal(again, `key ${created.id} (${created.display_prefix}…) was already revoked at ${first.revoked_at}; nothing changed\n`);
  const json = await cliJson<JsonKey & { already_revoked: boolean; revoked_at: string }>(db, ['keys', 'revoke', created.id!]);
  assert.deepEqual([json.already_revoked, json.state, json.revoked_at], [true, 'revoked', first.revoked_at]);

  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' }));
  try {
    const org = (await deps.store.access.getOrg('twice'))!;
    const revocations = (await deps.store.dashboard.listAudit(org.id, 100)).filter((e) => e.action === 'key.revoked');
    assert.equal(revocations.length, 1);
  } finally {
    await deps.close();
  }
});

test('usage reports what a running server counted, by key and outcome', async () => {
  const { key } = await cliJson<{ key: string }>(db, ['keys', 'create', '--org', 'acme', '--name', 'reporting']);
  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' }));
  const app = await buildApp(deps);
  try {
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) assert.equal((await get('/v1/codes')).statusCode, 200);
    assert.equal((await get('/v1/codes?limit=0')).statusCode, 400);
    assert.equal((await get('/v1/changes')).statusCode, 403);
    assert.equal((await get('/v1/nowhere')).statusCode, 404);
    await deps.limiter.flush();
    await deps.usage.flush();
    // While the server is up.
    const month = new Date().toISOString().slice(0, 7);
    const report = await cliJson<{ org: string; month: string; counted: number; byKey: { displayPrefix: string; byOutcome: Record<string, number> }[] }>(db, [
      'usage',
      '--org',
      'acme',
      '--month',
      month,
    ]);
    assert.deepEqual([report.org, report.month, report.counted], ['acme', month, 4]);
    assert.deepEqual(
      report.byKey.map((k) => [k.displayPrefix, k.byOutcome]),
      [[key.slice(0, 13), { ok: 3, client_error: 1, refused_auth: 1, refused_route: 1 }]],
    );
    const text = ok(await cli('usage', '--org', 'acme'));
    assert.match(text, /counted toward the allowance: 4 of 5000/);
    // The numbers add up: 4 counted + 2 not counted, by reason = 6.
    assert.match(text, /not counted: 2 \(refused_auth 1, refused_route 1, refused_limit 0, server_error 0\)/);
    assert.match(text, /all requests: 6/);
    assert.ok(!text.includes(key.slice(9)));
    assert.equal((await cliJson<{ counted: number }>(db, ['usage', '--org', 'acme', '--month', '2020-01'])).counted, 0);
  } finally {
    await app.close();
    await deps.close();
  }
});

test('a key name with control characters or an API key in it is refused; one stored before is listed with them escaped, not sent to the terminal', async () => {
  const refused = await cli('keys', 'create', '--org', 'acme', '--name', 'ok\u001b[2J\u001b[31mred');
  assert.equal(refused.code, 1, refused.stderr);
  assert.equal(refused.stderr, 'codebook: key name must not contain control characters (line breaks, tabs, escapes)\n');
  assert.equal((await cli('keys', 'create', '--org', 'acme', '--name', 'two\nlines')).code, 1);
  const keyInName = await cli('keys', 'create', '--org', 'acme', '--name', `backup of svc_live_${'A1b2'.repeat(8)}`);
  assert.equal(keyInName.stderr, 'codebook: key name must not contain an API key: name the key after what uses it\n');
  assert.equal(keyInName.code, 1);

  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' }));
  try {
    const org = (await deps.store.access.getOrg('acme'))!;
    const name = 'old\u001b[2Jname\nnext';
    await deps.store.access.insertKey({
      id: 'key_escapedname',
      orgId: org.id,
      hash: 'f'.repeat(64),
      displayPrefix: 'svc_live_zzzz',
      name,
      mode: 'live',
      createdAt: new Date().toISOString(),
    });
  } finally {
    await deps.close();
  }
  const listed = ok(await cli('keys', 'list', '--org', 'acme'));
  const row = listed.split('\n').find((line) => line.startsWith('key_escapedname'));
  assert.ok(row?.includes('old\\u001b[2Jname\\u000anext'), listed);
  assert.ok(!/\p{Cc}/u.test(listed.replaceAll('\n', '')), `control characters reached the terminal: ${JSON.stringify(listed)}`);
  assert.equal(
    (await cliJson<JsonKey[]>(db, ['keys', 'list', '--org', 'acme'])).find((k) => k.id === 'key_escapedname')?.name,
    'old\u001b[2Jname\nnext',
    '--json keeps the stored name as it is',
  );
});

test('every command refuses sqlite::memory: with one line that says why, instead of writing into a database that ends with it', async () => {
  const file = join(dir, 'one.csv');
  writeFileSync(file, 'code,display\nA,Alpha\n');
  const commands = [
    ['orgs', 'create', 'ephemeral', '--plan', 'free'],
    ['keys', 'list', '--org', 'acme'],
    ['import', file, '--system', 'x', '--release', 'r1', '--effective-date', '2024-01-01'],
  ];
  await all(commands, async (args) => {
    const r = await runCodebook(args, { settings: { DATABASE_URL: 'sqlite::memory:' } });
    assert.equal(r.code, 1, `codebook ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /^codebook: DATABASE_URL: sqlite::memory: cannot hold what a command writes: .*give a file path, e\.g\. sqlite:\.\/data\/codebook\.db\n$/,
    );
    assert.equal(r.stdout, '');
  });
});

test('a PostgreSQL database or role that does not exist is named as such, not reported as unreachable', { skip: await skipUnlessPostgres() }, async () => {
  const url = (path: string, user?: string) => {
    const u = new URL(ADMIN_URL);
    u.pathname = path;
    if (user !== undefined) u.username = user;
    return u.href;
  };
  const cases: [string, RegExp][] = [
    [url('/codebook_no_such_database'), /^codebook: PostgreSQL refused the connection: database "codebook_no_such_database" does not exist\n$/],
    [url('/postgres', 'codebook_no_such_role'), /^codebook: PostgreSQL refused the connection: role "codebook_no_such_role" does not exist\n$/],
  ];
  for (const [databaseUrl, said] of cases) {
    const r = await runCodebook(['orgs', 'list'], { settings: { DATABASE_URL: databaseUrl } });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, said);
  }
});

test('bad arguments: one line on stderr, a non-zero exit, no stack trace', async () => {
  const cases: string[][] = [
    ['plans', 'set', 'gold', '--endpoints', 'codes.list,codes.delete', '--rate-per-minute', '10', '--monthly-quota', '10'],
    ['plans', 'set', 'gold', '--endpoints', 'codes.list', '--rate-per-minute', 'fast', '--monthly-quota', '10'],
    ['plans', 'set', 'gold', '--endpoints', 'codes.list', '--rate-per-minute', '0', '--monthly-quota', '10'],
    ['plans', 'set', 'gold', '--endpoints', 'codes.list', '--rate-per-minute=-5', '--monthly-quota', '10'],
    ['plans', 'set', 'gold', '--endpoints', 'codes.list', '--rate-per-minute', '10', '--monthly-quota', 'lots'],
    ['plans', 'set', 'gold', '--endpoints', 'codes.list', '--monthly-quota', '10'],
    ['plans', 'set', 'Gold Plan', '--endpoints', 'codes.list', '--rate-per-minute', '10', '--monthly-quota', '10'],
    ['plans', 'set', '--endpoints', 'codes.list', '--rate-per-minute', '10', '--monthly-quota', '10'],
    ['plans', 'delete', 'free'],
    ['orgs', 'create', 'newco', '--plan', 'platinum'],
    ['orgs', 'create', 'newco'],
    ['orgs', 'create', 'Acme Inc', '--plan', 'free'],
    ['orgs', 'create', 'acme-', '--plan', 'free'],
    ['orgs', 'create', 'acme', '--plan', 'free'],
    ['orgs', 'create', '--plan', 'free'],
    ['orgs', 'set-plan', 'acme', 'platinum'],
    ['orgs', 'set-plan', 'nobody', 'free'],
    ['orgs', 'set-plan', 'acme'],
    ['keys', 'create'],
    ['keys', 'create', '--org', 'nobody'],
    ['keys', 'create', '--org', 'acme', '--test'],
    ['keys', 'create', '--org', 'acme', '--name', 'x'.repeat(101)],
    ['keys', 'list'],
    ['keys', 'revoke'],
    ['keys', 'revoke', 'key_doesnotexist'],
    ['keys', 'rotate', '--org', 'acme'],
    ['usage'],
    ['usage', '--org', 'nobody'],
    ['usage', '--org', 'acme', '--month', '2026-13'],
    ['usage', '--org', 'acme', '--month', 'march'],
  ];
  await all(cases, async (args) => {
    const r = await runCli(db, args);
    const what = `codebook ${args.join(' ')}`;
    assert.notEqual(r.code, 0, `${what} succeeded`);
    assert.ok(!r.stderr.includes('    at '), `${what} printed a stack trace:\n${r.stderr}`);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${what} printed more than one line:\n${r.stderr}`);
    assert.match(r.stderr, /^codebook: \S/, what);
    assert.equal(r.stdout, '', `${what} wrote to stdout`);
  });
  // Nothing was changed by the refused commands.
  const orgs = await cliJson<JsonOrg[]>(db, ['orgs', 'list']);
  assert.deepEqual(
    orgs.filter((o) => ['acme', 'newco', 'nobody'].includes(o.slug)).map((o) => [o.slug, o.plan]),
    [['acme', 'bronze']],
  );
  assert.ok(!(await cliJson<JsonPlan[]>(db, ['plans', 'list'])).some((p) => p.name === 'gold'));
});

test('bad arguments are refused before the database is opened: no file is created for them', async () => {
  const fresh = join(dir, 'never-created.db');
  const cases = [
    ['systems', 'bogus'],
    ['systems', 'show'],
    ['systems', 'set'],
    ['users', 'bogus'],
    ['users', 'create', '--org', 'acme'],
    ['users', 'link'],
    ['users', 'disable'],
    ['usage'],
    ['keys', 'list'],
    ['keys', 'create'],
    ['orgs', 'create', 'newco'],
  ];
  for (const args of cases) {
    const r = await runCodebook(args, { settings: { DATABASE_URL: `sqlite:${fresh}` } });
    assert.equal(r.code, 2, `codebook ${args.join(' ')}: ${r.stderr}`);
    assert.equal(existsSync(fresh), false, `codebook ${args.join(' ')} created the database file`);
  }
});

test('a command naming an organisation that does not exist says how to create it', async () => {
  const commands = [
    ['users', 'create', '--org', 'nobody', '--email', 'n@example.com'],
    ['keys', 'create', '--org', 'nobody'],
    ['keys', 'list', '--org', 'nobody'],
    ['usage', '--org', 'nobody'],
    ['orgs', 'set-plan', 'nobody', 'free'],
  ];
  await all(commands, async (args) => {
    const r = await runCli(db, args);
    assert.equal(r.code, 1, r.stderr);
    const plans = /^codebook: no organisation "nobody"; create it first with: codebook orgs create nobody --plan PLAN \(plans: ([^)]*)\)\n$/.exec(r.stderr);
    assert.ok(plans, `${args.join(' ')}: ${r.stderr}`);
    for (const plan of ['bronze', 'free', 'pro']) assert.ok(plans[1]!.split(', ').includes(plan), `${plan} is listed: ${r.stderr}`);
  });
});
