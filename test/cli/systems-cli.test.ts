/** `codebook systems list|show|set` as a real process on a real database file. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cliJson, runCli } from '../access/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'codebook-systems-cli-'));
const db = join(dir, 'codebook.db');

before(async () => {
  const file = join(dir, 'codes.csv');
  writeFileSync(file, 'code,display,status\nA,Alpha,active\nB,Beta,deprecated\n');
  const imported = await runCli(db, ['import', file, '--system', 'greek', '--release', 'v1', '--effective-date', '2024-01-01']);
  assert.equal(imported.code, 0, imported.stderr);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('systems list and show: counts, latest release, and the releases', async () => {
  const list = await cliJson<{ id: string; counts: unknown }[]>(db, ['systems', 'list', '--json']);
  assert.deepEqual(
    list.map((s) => [s.id, s.counts]),
    [['greek', { active: 1, deprecated: 1, retired: 0 }]],
  );
  const shown = await cliJson<{ latest_release: string; releases: { id: string; counts: { added: number } }[] }>(db, ['systems', 'show', 'greek', '--json']);
  assert.equal(shown.latest_release, 'v1');
  assert.deepEqual(
    shown.releases.map((r) => [r.id, r.counts.added]),
    [['v1', 2]],
  );
  const text = await runCli(db, ['systems', 'show', 'greek']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /greek\s+greek\s+1\s+1\s+0\s+v1\s+2024-01-01/);
});

test('systems set names and describes a system; an empty value clears a field; bad input is refused', async () => {
  const set = await cliJson<Record<string, unknown>>(db, [
    'systems',
    'set',
    'greek',
    '--name',
    'Greek letters',
    '--publisher',
    'Us',
    '--url',
    'https://example.org/greek',
    '--license',
    'CC0',
    '--json',
  ]);
  assert.deepEqual([set.name, set.publisher, set.url, set.license, set.description], ['Greek letters', 'Us', 'https://example.org/greek', 'CC0', null]);
  const cleared = await cliJson<Record<string, unknown>>(db, ['systems', 'set', 'greek', '--license', '', '--json']);
  assert.deepEqual([cleared.name, cleared.license], ['Greek letters', null]);
  for (const [args, message] of [
    [['systems', 'set', 'nope', '--name', 'x'], /no system "nope"/],
    [['systems', 'set', 'greek', '--url', 'ftp://x'], /--url must be an http\(s\) URL/],
    [['systems', 'set', 'greek'], /nothing to set/],
    [
      ['systems', 'set', 'greek', '--name', '  '],
      /--name cannot be only white space: give a name, or an empty value \(--name ""\) to make the name the id again/,
    ],
    [['systems', 'show', 'nope'], /no system "nope"/],
  ] as const) {
    const r = await runCli(db, [...args]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, message);
  }
});

test('systems set --name "" clears the name: the name is the id again, as before it was set', async () => {
  const named = await cliJson<Record<string, unknown>>(db, ['systems', 'set', 'greek', '--name', 'Greek letters', '--description', 'Letters', '--json']);
  assert.deepEqual([named.name, named.description], ['Greek letters', 'Letters']);
  const cleared = await runCli(db, ['systems', 'set', 'greek', '--name', '', '--description', '']);
  assert.equal(cleared.code, 0, cleared.stderr);
  assert.match(cleared.stdout, /^system greek saved\n/);
  const shown = await cliJson<Record<string, unknown>>(db, ['systems', 'show', 'greek', '--json']);
  assert.deepEqual([shown.name, shown.description], ['greek', null]);
  const listed = await runCli(db, ['systems', 'list']);
  assert.match(listed.stdout, /^greek\s+greek\s+/m, 'the NAME column shows the id');
});
