/** The real operator CLI (bin/codebook.js) in a child process: `import` and `demo`. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { runCodebook, type CliResult } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = tempDir();
  dbPath = join(dir, 'x.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Run = CliResult;

function codebook(...args: string[]): Promise<Run> {
  return runCodebook(args, { cwd: dir, settings: { DATABASE_URL: `sqlite:${dbPath}` }, timeoutMs: 60_000 });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** What the database holds, read through the store: code ids and change count. */
async function contents(): Promise<{ codes: string[]; changes: number; json: string }> {
  const store = new SqliteStore({ path: dbPath });
  try {
    const codes = await store.pageCodes({ after: null, limit: 200, system: null, status: null });
    const changes = await store.pageChanges({ after: null, limit: 200, system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null });
    assert.equal(codes.hasMore || changes.hasMore, false, 'the test data fits one page');
    return {
      codes: (JSON.parse(`[${codes.json.toString('utf8')}]`) as { id: string }[]).map((c) => c.id),
      changes: changes.count,
      json: `${codes.json.toString('utf8')}${changes.json.toString('utf8')}`,
    };
  } finally {
    await store.close();
  }
}

const GOOD = 'code,display,status\nA,Alpha,active\nB,Beta,active\n';
const IMPORT = ['--system', 'demo', '--release', 'r1', '--effective-date', '2024-01-01'];

describe('codebook import', () => {
  test('prints a summary line and exits 0', async () => {
    const run = await codebook('import', file('codes.csv', GOOD), ...IMPORT);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^imported demo r1 \(effective 2024-01-01, snapshot\): 2 rows — added 2, revised 0, retired 0, reactivated 0, unchanged 0; changes 1–2; \d+\.\d\d s\n$/,
    );
    assert.equal(run.stderr, '');
    assert.deepEqual((await contents()).codes, ['demo:A', 'demo:B']);
  });

  test('--json prints one parseable JSON summary with the counts', async () => {
    await codebook('import', file('codes.csv', GOOD), ...IMPORT);
    const run = await codebook(
      'import',
      file('next.ndjson', '{"code":"A","display":"Alpha!"}\n{"code":"C","display":"Gamma"}\n'),
      '--system',
      'demo',
      '--release',
      'r2',
      '--effective-date',
      '2024-02-01',
      '--json',
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.deepEqual(
      { ...summary, durationMs: 0 },
      {
        system: 'demo',
        release: 'r2',
        effectiveDate: '2024-02-01',
        mode: 'snapshot',
        rows: 2,
        added: 1,
        revised: 1,
        retired: 1,
        reactivated: 0,
        repaired: 0,
        unchanged: 0,
        unfilteredFeedAt: null,
        firstChangeId: 3,
        lastChangeId: 5,
        durationMs: 0,
      },
    );
  });

  const badArguments: [string, string[], RegExp][] = [
    ['missing --system', ['import', 'FILE', '--release', 'r1', '--effective-date', '2024-01-01'], /missing --system/],
    [
      'a bad --effective-date',
      ['import', 'FILE', '--system', 'demo', '--release', 'r1', '--effective-date', '2024-13-01'],
      /--effective-date "2024-13-01" must be a calendar date/,
    ],
    ['an unknown flag', ['import', 'FILE', ...IMPORT, '--offset', '3'], /Unknown option '--offset'/],
    ['an unknown --format', ['import', 'FILE', ...IMPORT, '--format', 'xlsx'], /--format must be one of csv, ndjson \(got "xlsx"\)/],
    ['an unknown --mode', ['import', 'FILE', ...IMPORT, '--mode', 'merge'], /--mode must be one of snapshot, delta/],
    ['a missing file', ['import', 'MISSING', ...IMPORT], /no such file: .*nope\.csv/],
    ['no file', ['import', ...IMPORT], /expected one FILE, got 0/],
    ['a directory for a file', ['import', 'DIR', ...IMPORT], /not a file/],
  ];
  for (const [name, args, message] of badArguments) {
    test(`${name}: one line on stderr, a non-zero exit, no stack trace, database untouched`, async () => {
      const good = file('codes.csv', GOOD);
      const resolved = args.map((a) => (a === 'FILE' ? good : a === 'MISSING' ? join(dir, 'nope.csv') : a === 'DIR' ? dir : a));
      const run = await codebook(...resolved);
      assert.notEqual(run.code, 0);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^codebook: [^\n]+\n$/, `exactly one line: ${JSON.stringify(run.stderr)}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, / {4}at /);
      assert.equal(existsSync(dbPath), false, 'bad arguments do not create the database');
    });
  }

  test('a file with bad rows prints "line N: …" for each, exits 1 and applies nothing', async () => {
    await codebook('import', file('codes.csv', GOOD), ...IMPORT);
    const before = await contents();
    const bad = file('bad.csv', 'code,display,status\nA,Alpha,active\n,No code,active\nC,Gamma,gone\nA,Again,active\nD,"multi\nline",active,extra\n');
    const run = await codebook('import', bad, ...IMPORT, '--release', 'r2', '--effective-date', '2024-02-01');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    const lines = run.stderr.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, -1), [
      'line 3: code is required',
      'line 4: status must be one of active, deprecated, retired (got "gone")',
      'line 5: code A appears again (first on line 2)',
      'line 6: expected 3 fields as in the header, found 4',
    ]);
    assert.match(lines.at(-1)!, /^codebook: 4 problem\(s\) in .*bad\.csv; nothing was imported$/);
    assert.deepEqual(await contents(), before, 'nothing was applied');
  });

  test('past 1000 bad rows: the first 1000 printed, and the last line says reading stopped there, also with --json', async () => {
    const bad = file('bad.ndjson', '{"code":"","display":"x"}\n'.repeat(1_500));
    const stopped = `the first 1000 problems in ${bad} (to line 1000): reading stops at 1000, so the rest of the file was not checked; nothing was imported`;
    const run = await codebook('import', bad, ...IMPORT);
    assert.equal(run.code, 1);
    const lines = run.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1001);
    assert.deepEqual([lines[0], lines[999], lines[1000]], ['line 1: code is required', 'line 1000: code is required', `codebook: ${stopped}`]);
    const json = await codebook('import', bad, ...IMPORT, '--json');
    assert.equal(json.code, 1);
    const { error } = JSON.parse(json.stdout) as { error: { message: string; errors: { line: number }[] } };
    assert.equal(error.message, stopped);
    assert.equal(error.errors.length, 1000);
    assert.equal(existsSync(dbPath) ? (await contents()).changes : 0, 0, 'nothing was applied');
  });

  test('a file that is not UTF-8 names its line once', async () => {
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.concat([Buffer.from('code,display\n'), Buffer.from('B,Caf\xe9\n', 'latin1'), Buffer.from('C,Gamma\n')]));
    const run = await codebook('import', latin1, ...IMPORT);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.trimEnd().split('\n'), [
      'line 2: not valid UTF-8 text: save the file as UTF-8',
      `codebook: 1 problem(s) in ${latin1}; nothing was imported`,
    ]);
  });

  test('a back-dated import is refused with one line naming --allow-backdated, and allowed with it', async () => {
    await codebook('import', file('codes.csv', GOOD), ...IMPORT, '--effective-date', '2024-06-01');
    const delta = file('delta.csv', 'code,display\nC,Gamma\n');
    const refused = await codebook('import', delta, ...IMPORT, '--mode', 'delta', '--release', 'r0', '--effective-date', '2024-05-01');
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^codebook: --effective-date 2024-05-01 is before the latest effective date of system demo \(2024-06-01\).*--allow-backdated[^\n]*\n$/,
    );
    const allowed = await codebook('import', delta, ...IMPORT, '--mode', 'delta', '--release', 'r0', '--effective-date', '2024-05-01', '--allow-backdated');
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.deepEqual((await contents()).codes, ['demo:A', 'demo:B', 'demo:C']);
  });

  test("a release that changed nothing moves the system's latest effective date, and imports may not go back before it", async () => {
    const system = async () => {
      const shown = await codebook('systems', 'show', 'ord', '--json');
      assert.equal(shown.code, 0, shown.stderr);
      const s = JSON.parse(shown.stdout) as { latest_release: string; latest_effective_date: string };
      return [s.latest_release, s.latest_effective_date];
    };
    const codes = file('codes.csv', GOOD);
    const ord = (release: string, date: string, ...rest: string[]) => ['--system', 'ord', '--release', release, '--effective-date', date, ...rest];
    assert.equal((await codebook('import', codes, ...ord('o3', '2026-06-02'))).code, 0);
    const unchanged = await codebook('import', codes, ...ord('o4', '2026-08-01'));
    assert.match(unchanged.stdout, /added 0, revised 0, retired 0, reactivated 0, unchanged 2/);
    assert.deepEqual(await system(), ['o4', '2026-08-01']);

    const delta = file('ord-d.csv', 'code,display\nC,Gamma\n');
    const before = await contents();
    const refused = await codebook('import', delta, ...ord('o5', '2026-07-15', '--mode', 'delta'));
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'codebook: --effective-date 2026-07-15 is before the latest effective date of system ord (2026-08-01): clients following its changes from 2026-08-01 on would never see these 1 change(s). Pass --allow-backdated to record them anyway.\n',
    );
    assert.deepEqual(await contents(), before, 'nothing was imported');
    assert.deepEqual(await system(), ['o4', '2026-08-01']);

    const onTheDate = await codebook('import', delta, ...ord('o5', '2026-08-01', '--mode', 'delta'));
    assert.equal(onTheDate.code, 0, onTheDate.stderr);
    assert.deepEqual(await system(), ['o5', '2026-08-01']);
  });
});

describe('codebook import refuses what would harm a system, in one line per problem', () => {
  test('an unpaired surrogate in NDJSON: the line and the field, nothing applied, and the next snapshot imports', async () => {
    await codebook('import', file('codes.csv', GOOD), ...IMPORT);
    const before = await contents();
    const bad = await codebook(
      'import',
      file('bad.ndjson', '{"code":"A","display":"Alpha"}\n{"code":"X\\ud800","display":"Bad"}\n'),
      ...IMPORT,
      '--release',
      'r2',
    );
    assert.equal(bad.code, 1);
    assert.deepEqual(bad.stderr.trimEnd().split('\n'), [
      'line 2: code is not valid Unicode text: it holds an unpaired surrogate (a \\ud800–\\udfff escape without its pair); correct the source file',
      `codebook: 1 problem(s) in ${join(dir, 'bad.ndjson')}; nothing was imported`,
    ]);
    assert.deepEqual(await contents(), before);
    const next = await codebook('import', file('next.csv', GOOD), ...IMPORT, '--release', 'r3', '--effective-date', '2024-03-01');
    assert.equal(next.code, 0, next.stderr);
  });

  test('a snapshot with a header and no rows is refused with the count; --allow-mass-retire retires them', async () => {
    await codebook('import', file('codes.csv', GOOD), ...IMPORT);
    const empty = file('empty.csv', 'code,display\n');
    const refused = await codebook('import', empty, ...IMPORT, '--release', 'r2', '--effective-date', '2024-02-01');
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'codebook: this snapshot would retire 2 of the 2 codes of system demo not yet retired (more than half): is the file complete? Pass --allow-mass-retire to retire them anyway.\n',
    );
    const allowed = await codebook('import', empty, ...IMPORT, '--release', 'r2', '--effective-date', '2024-02-01', '--allow-mass-retire');
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /retired 2, reactivated 0, unchanged 0; changes 3–4/);
  });

  test('a CSV with 100 000 columns: one line naming the count and the limit', async () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const wide = file(
      'wide.csv',
      `code,display,${names.join(',')}\n${Array.from({ length: 20 }, (_, r) => `R${r},Row,${names.map(() => 'x').join(',')}\n`).join('')}`,
    );
    const run = await codebook('import', wide, ...IMPORT);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.trimEnd().split('\n'), [
      'line 1: the header has 100002 columns, 100000 of them attributes: at most 100 attribute columns are allowed (105 columns with code, display, definition, status, parents)',
      `codebook: 1 problem(s) in ${wide}; nothing was imported`,
    ]);
  });

  test('a delta closing a parent cycle with a stored code: the line and the cycle', async () => {
    await codebook('import', file('tree.csv', 'code,display,parents\nA,Alpha,\nB,Beta,A\n'), ...IMPORT);
    const run = await codebook(
      'import',
      file('cycle.csv', 'code,display,parents\nA,Alpha,B\n'),
      ...IMPORT,
      '--mode',
      'delta',
      '--release',
      'r2',
      '--effective-date',
      '2024-02-01',
    );
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.trimEnd().split('\n'), [
      'line 2: parents form a cycle (→ means "has parent"): A (line 2) → B (stored) → A; remove one of these parents',
      `codebook: 1 problem(s) with parents in ${join(dir, 'cycle.csv')}; nothing was imported`,
    ]);
  });

  test("with the demo data at 2026, a first import of another system's 2019 release goes in; its own past stays guarded", async () => {
    assert.equal((await codebook('demo')).code, 0);
    const first = await codebook('import', file('old.csv', GOOD), '--system', 'legacy', '--release', '2019', '--effective-date', '2019-01-01');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^imported legacy 2019 \(effective 2019-01-01, snapshot\): 2 rows — added 2/);
    assert.equal(
      first.stderr,
      'codebook: note: these changes are dated 2019-01-01, before the latest change of another system (2026-01-01): clients following GET /v1/changes without a system filter past 2026-01-01 will not see them; clients following ?system=legacy will\n',
    );
    const older = await codebook(
      'import',
      file('older.csv', 'code,display\nC,Gamma\n'),
      '--system',
      'legacy',
      '--release',
      '2018',
      '--effective-date',
      '2018-01-01',
      '--mode',
      'delta',
    );
    assert.equal(older.code, 1);
    assert.match(older.stderr, /^codebook: --effective-date 2018-01-01 is before the latest effective date of system legacy \(2019-01-01\)/);
    const demo = await codebook(
      'import',
      file('iso.csv', 'code,display\nXXX,Test\n'),
      '--system',
      'iso4217',
      '--release',
      'x',
      '--effective-date',
      '2019-01-01',
      '--mode',
      'delta',
    );
    assert.equal(demo.code, 1);
    assert.match(demo.stderr, /^codebook: --effective-date 2019-01-01 is before the latest effective date of system iso4217 \(2026-01-01\)/);
  });
});

describe('codebook demo', () => {
  test('loads the shipped demo data; a second run records no change', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'data', 'demo', 'manifest.json'), 'utf8')) as { systems: { releases: { release: string }[] }[] };
    const releases = manifest.systems.flatMap((s) => s.releases.map((r) => r.release));
    const first = await codebook('demo');
    assert.equal(first.code, 0, first.stderr);
    const imported = first.stdout.trimEnd().split('\n');
    assert.deepEqual(
      imported.map((l) => /^imported iso4217 (\S+) /.exec(l)?.[1]),
      releases,
    );
    assert.match(imported[0]!, /added 1\d\d, revised 0, retired 0/);

    const store = new SqliteStore({ path: dbPath });
    try {
      const status = async (id: string) => (JSON.parse((await store.codeJson(id))!) as { status: string }).status;
      // Facts the demo README promises: the euro changeovers and the removed currencies.
      assert.deepEqual(
        await Promise.all(['iso4217:EUR', 'iso4217:HRK', 'iso4217:BGN', 'iso4217:SLL', 'iso4217:ZWL', 'iso4217:XCG', 'iso4217:XAD'].map(status)),
        ['active', 'retired', 'retired', 'retired', 'retired', 'active', 'active'],
      );
    } finally {
      await store.close();
    }
    const before = await contentsOfDemo();

    const second = await codebook('demo');
    assert.equal(second.code, 0, second.stderr);
    for (const line of second.stdout.trimEnd().split('\n')) {
      assert.match(line, /^skipped iso4217 \S+ \(effective [\d-]+\): already loaded$|no change recorded/);
    }
    assert.deepEqual(await contentsOfDemo(), before, 'no code and no change was written');

    // --json: stdout is the releases imported (none), and stderr says why.
    const json = await codebook('demo', '--json');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), []);
    assert.deepEqual(
      json.stderr
        .trimEnd()
        .split('\n')
        .map((l) => /^skipped iso4217 (\S+) \(effective [\d-]+\): already loaded$/.exec(l)?.[1]),
      releases,
    );
  });
});

/** Every demo code's JSON and the number of changes, read through the store. */
async function contentsOfDemo(): Promise<{ codes: string; changes: number }> {
  const store = new SqliteStore({ path: dbPath });
  try {
    let codes = '';
    let after: string | null = null;
    for (;;) {
      const page = await store.pageCodes({ after, limit: 200, system: null, status: null });
      codes += page.json.toString('utf8');
      if (!page.hasMore) break;
      after = page.last;
    }
    let changes = 0;
    let position = null;
    for (;;) {
      const page = await store.pageChanges({ after: position, limit: 200, system: null, codeId: null, type: null, effectiveFrom: null, effectiveTo: null });
      changes += page.count;
      if (!page.hasMore) break;
      position = page.last;
    }
    return { codes, changes };
  } finally {
    await store.close();
  }
}
