/**
 * The README, followed as written on a fresh database. Its `sh` blocks are
 * run in order: `npx codebook …` as the real CLI, `curl …` as fetch against a
 * real server started with package.json's start script on a free port, and
 * the JSON shown right after a command is compared with what it answered.
 * Lines of the CLI reference with placeholders (FILE, SLUG, [--test]) run with
 * the values listed below, and each must still be in the README. A command
 * this test does not know how to run fails it, so a new one cannot go unchecked.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { ERROR_CODES, ERROR_STATUS } from '../src/errors.ts';
import { childEnv, ROOT, runCodebook, type CliResult } from './helpers/cli.ts';
import { createTestContext, tempDir } from './helpers/context.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const README_BASE = 'http://127.0.0.1:8080';

interface Block {
  lang: string;
  lines: string[];
  /** The README line the block's fence opens on. */
  at: number;
  /** The block right after this one, when only blank lines separate them. */
  next?: Block;
}

/** Fenced blocks, indented ones (inside list items) included. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    const block: Block = { lang: open[2]!, lines: body, at: i + 1 };
    const previous = blocks.at(-1);
    if (previous && lines.slice(lastEnd + 1, i).every((l) => l.trim() === '')) previous.next = block;
    blocks.push(block);
    lastEnd = j;
    i = j;
  }
  return blocks;
}

/** One shell line as words, the way sh would split it: quotes, $NAME (left as is without vars), and a # comment. */
function shellWords(line: string, vars?: Record<string, string>): { text: string; words: string[] } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let i = 0;
  const expand = (): string => {
    const name = /^[A-Za-z_]\w*/.exec(line.slice(i + 1))?.[0];
    if (!name || vars === undefined) return '$';
    i += name.length;
    assert.ok(name in vars, `the README uses $${name} before it sets it: ${line}`);
    return vars[name]!;
  };
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '$') word += expand();
      else if (c === '\\' && '"\\$'.includes(line[i + 1] ?? '')) word += line[++i]!;
      else word += c;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === '#' && !inWord) {
      break;
    } else {
      inWord = true;
      if (c === '"' || c === "'") quote = c;
      else word += c === '$' ? expand() : c === '\\' ? (line[++i] ?? '') : c;
    }
  }
  assert.equal(quote, null, `unbalanced quotes: ${line}`);
  if (inWord) words.push(word);
  return { text: line.slice(0, i).trim(), words };
}

/** Commands the suite cannot run inside itself, and where they are covered instead. */
const COVERED_ELSEWHERE: Record<string, string> = {
  'npm install && npm start': 'this test starts the server with the start script of package.json',
  'npm install && npm test': 'this test is part of npm test',
  'npm test': 'this test is part of npm test',
  'npm run check': '.ci/run runs it',
  'npm run format': 'it rewrites files; npm run check runs prettier --check, and .ci/run runs that',
  'npm run coverage': 'it runs the whole suite, this test among it',
  'npm ci --omit=dev': '.ci/production-smoke runs the production install',
  'npm start': 'this test starts the server with the start script of package.json; .ci/production-smoke runs npm start itself',
};

interface State {
  dir: string;
  vars: Record<string, string>;
  base: string;
  demoKey: string;
  lastCursor?: string;
  /** The README's CSV example, as a file. */
  csvFile: string;
  keyId?: string;
  key?: string;
}

/** The CLI reference's placeholders, filled in; run in the README's order. */
const SYNOPSES: Record<string, (s: State) => string[]> = {
  'npx codebook import FILE --system S --release R --effective-date YYYY-MM-DD [--format csv|ndjson] [--mode snapshot|delta] [--allow-backdated] [--allow-mass-retire]':
    (s) => ['import', s.csvFile, '--system', 'example', '--release', '2027-01', '--effective-date', '2027-01-01', '--format', 'csv', '--mode', 'snapshot'],
  'npx codebook plans set NAME --endpoints codes.list,codes.get,changes.list --rate-per-minute N --monthly-quota N|unlimited [--no-test-keys]': () => [
    'plans',
    'set',
    'team',
    '--endpoints',
    'codes.list,codes.get,changes.list',
    '--rate-per-minute',
    '100',
    '--monthly-quota',
    'unlimited',
    '--no-test-keys',
  ],
  'npx codebook orgs create SLUG --plan NAME': () => ['orgs', 'create', 'beta', '--plan', 'team'],
  'npx codebook orgs set-plan SLUG NAME': () => ['orgs', 'set-plan', 'beta', 'free'],
  'npx codebook keys create --org SLUG [--test] [--name NAME] [--expires-at DATE|TIME|Nd]': () => [
    'keys',
    'create',
    '--org',
    'beta',
    '--test',
    '--name',
    'ci',
    '--expires-at',
    '90d',
    '--json',
  ],
  'npx codebook keys roll KEY_ID [--grace now|1h|24h|7d]': (s) => ['keys', 'roll', s.keyId!, '--grace', '1h', '--json'],
  'npx codebook keys revoke KEY_ID': (s) => ['keys', 'revoke', s.keyId!],
  'npx codebook keys list --org SLUG': () => ['keys', 'list', '--org', 'beta'],
  'npx codebook usage --org SLUG [--month YYYY-MM]': () => ['usage', '--org', 'demo', '--month', new Date().toISOString().slice(0, 7)],
  'npx codebook users create --org SLUG --email E': () => ['users', 'create', '--org', 'beta', '--email', 'bob@example.com'],
  'npx codebook users link --email E': () => ['users', 'link', '--email', 'bob@example.com'],
  'npx codebook users list [--org SLUG]': () => ['users', 'list', '--org', 'beta'],
  'npx codebook users disable --email E': () => ['users', 'disable', '--email', 'bob@example.com'],
  'npx codebook backup FILE': () => ['backup', 'first-backup.db'],
  'npx codebook systems show SYSTEM': () => ['systems', 'show', 'iso4217'],
  'npx codebook systems set SYSTEM [--name TEXT] [--description TEXT] [--url URL] [--publisher TEXT] [--license TEXT]': () => [
    'systems',
    'set',
    'iso4217',
    '--name',
    'ISO 4217',
    '--publisher',
    'ISO',
    '--url',
    'https://www.iso.org/iso-4217-currency-codes.html',
    '--license',
    '',
  ],
  'npx codebook generate --codes N --changes M --dates D [--seed S] --out DIR': () => [
    'generate',
    '--codes',
    '100',
    '--changes',
    '150',
    '--dates',
    '3',
    '--seed',
    '7',
    '--out',
    'generated',
  ],
};

const isSynopsis = (words: string[]) => words.some((w) => /^[A-Z][A-Z_]*$/.test(w) || /[[\]|…]|YYYY/.test(w));

/** Values that differ on every run: compared by type only. */
const VOLATILE = new Set(['updated_at', 'recorded_at', 'request_id', 'next_cursor']);

/** actual is what the README shows, where "…" marks what it leaves out. */
function assertLike(actual: unknown, shown: unknown, path: string): void {
  if (Array.isArray(shown)) {
    assert.ok(Array.isArray(actual), `${path}: an array`);
    assert.equal(actual.length, shown.length, `${path}: length`);
    shown.forEach((item, i) => assertLike(actual[i], item, `${path}[${i}]`));
  } else if (shown !== null && typeof shown === 'object') {
    assert.ok(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${path}: an object`);
    const keys = Object.keys(shown).filter((k) => k !== '…');
    if (!('…' in shown)) assert.deepEqual(Object.keys(actual).sort(), [...keys].sort(), `${path}: the fields`);
    for (const key of keys) {
      const value: unknown = (actual as Record<string, unknown>)[key];
      if (VOLATILE.has(key)) assert.equal(typeof value, typeof (shown as Record<string, unknown>)[key], `${path}.${key}`);
      else assertLike(value, (shown as Record<string, unknown>)[key], `${path}.${key}`);
    }
  } else {
    assert.equal(actual, shown, path);
  }
}

let dir: string;
let databaseUrl: string;
let server: ChildProcess | null = null;
let serverOutput = '';

/** `npm start` as package.json says, on PORT=0 (a free port), until the demo key is printed. */
function startServer(): Promise<{ base: string; demoKey: string }> {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [program, ...args] = scripts.start.split(' ');
  assert.equal(program, 'node', 'npm start runs node (the pinned one, through npm)');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${serverOutput}`)), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready:\n${serverOutput}`));
    });
    const onData = (chunk: Buffer) => {
      serverOutput += chunk.toString();
      const base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(serverOutput)?.[1];
      const demoKey = /^ {2}(svc_live_[A-Za-z0-9]{32})$/m.exec(serverOutput)?.[1];
      if (base && demoKey) {
        clearTimeout(timer);
        resolve({ base, demoKey });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

function codebook(args: string[]): Promise<CliResult> {
  return runCodebook(args, { cwd: dir, settings: { DATABASE_URL: databaseUrl }, timeoutMs: 60_000 });
}

async function ok(args: string[], what: string): Promise<CliResult> {
  const run = await codebook(args);
  assert.equal(run.code, 0, `README line "${what}" (run as: codebook ${args.join(' ')}) exited ${run.code}: ${run.stderr}`);
  return run;
}

async function curl(words: string[], s: State, block: Block, shown: Block | undefined): Promise<void> {
  const headers: Record<string, string> = {};
  let url: string | undefined;
  let method = 'GET';
  let payload: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-X') {
      method = words[++i]!;
    } else if (w === '-d' || w === '--data') {
      payload = words[++i]!;
    } else if (w === '-H' || w === '--header') {
      const [name, ...value] = words[++i]!.split(':');
      headers[name!.trim()] = value.join(':').trim();
    } else if (w === '-s' || w === '-i' || w === '-sS') {
      continue;
    } else {
      assert.equal(url, undefined, `one URL per curl: ${words.join(' ')}`);
      url = w;
    }
  }
  assert.ok(url !== undefined && url.startsWith(README_BASE), `curl to ${url}: the README's examples talk to ${README_BASE}`);
  const res = await fetch(`${s.base}${url.slice(README_BASE.length)}`, { method, headers, body: payload });
  const text = await res.text();
  assert.equal(res.status, 200, `README line ${block.at}: curl ${url} answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { pagination?: { next_cursor?: string } };
  if (body.pagination?.next_cursor) s.lastCursor = body.pagination.next_cursor;
  if (shown?.lang === 'json') assertLike(body, JSON.parse(shown.lines.join('\n')), `the JSON after README line ${block.at}`);
}

async function npxCodebook(words: string[], text: string, s: State, block: Block, shown: Block | undefined): Promise<void> {
  if (isSynopsis(words)) {
    const fill = SYNOPSES[text];
    assert.ok(fill, `README line "${text}": no values for its placeholders in SYNOPSES`);
    const args = fill(s);
    const run = await ok(args, text);
    if (args[0] === 'keys' && args[1] === 'create') {
      const created = JSON.parse(run.stdout) as { id: string; key: string };
      s.keyId = created.id;
      s.key = created.key;
      const res = await fetch(`${s.base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${created.key}` } });
      assert.equal(res.status, 200, 'the key the CLI created works at once');
    }
    if (args[0] === 'keys' && args[1] === 'roll') {
      const rolled = JSON.parse(run.stdout) as { id: string; key: string };
      for (const key of [s.key!, rolled.key]) {
        const res = await fetch(`${s.base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200, 'both keys work during the grace period');
      }
      s.keyId = rolled.id;
      s.key = rolled.key;
    }
    if (args[0] === 'keys' && args[1] === 'revoke') {
      const res = await fetch(`${s.base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${s.key}` } });
      assert.equal(res.status, 401, 'the key the CLI revoked is refused at once');
    }
    if (args[0] === 'backup') assert.ok(existsSync(join(s.dir, args[1]!)));
    return;
  }
  const run = await ok(words.slice(2), text);
  // Output shown right after the command: its first line is what the command prints first.
  if (shown?.lang === '') assert.equal(run.stdout.split('\n')[0], shown.lines[0], `the output after README line ${block.at}`);
}

function openssl(words: string[]): void {
  const run = spawnSync(words[0]!, words.slice(1), { encoding: 'utf8' });
  assert.equal(run.status, 0, `${words.join(' ')}: ${run.stderr}`);
  const secret = run.stdout.trim();
  assert.equal(loadConfig({ CURSOR_SECRET: secret }).cursorSecret, secret, 'the generated secret is accepted as CURSOR_SECRET');
}

before(() => {
  dir = tempDir('codebook-readme-');
  databaseUrl = `sqlite:${join(dir, 'codebook.db')}`;
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test("the README's shell blocks work as written, in order, on a fresh database", async () => {
  const blocks = fencedBlocks(README);
  const csv = blocks.find((b) => b.lang === 'csv');
  assert.ok(csv, 'the import format example');
  const csvFile = join(dir, 'currencies.csv');
  writeFileSync(csvFile, `${csv.lines.join('\n')}\n`);

  const { base, demoKey } = await startServer();
  const banner = blocks.find((b) => b.lines[0]?.startsWith('A demo organisation'));
  assert.ok(banner, 'the README shows the first-start banner');
  for (const line of banner.lines.filter((l) => l.trim() !== '' && !l.includes('svc_live_') && !l.includes('127.0.0.1'))) {
    assert.ok(serverOutput.includes(line), `the first start prints "${line}"`);
  }

  const s: State = { dir, vars: {}, base, demoKey, csvFile };
  const usedSynopses = new Set<string>();
  let commands = 0;
  for (const block of blocks.filter((b) => b.lang === 'sh')) {
    const settings: Record<string, string> = {};
    const lastLine = block.lines.findLastIndex((l) => shellWords(l).words.length > 0);
    for (const [index, line] of block.lines.entries()) {
      const { text, words } = shellWords(line, s.vars);
      if (words.length === 0) continue;
      // What the README shows after a block is the output of its last command.
      const shown = index === lastLine ? block.next : undefined;
      commands++;
      if (text in COVERED_ELSEWHERE) continue;
      if (words.every((w) => /^[A-Z_]+=/.test(w))) {
        for (const w of words) settings[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
      } else if (words[0] === 'export' && words.length === 2) {
        const [name, value] = [words[1]!.slice(0, words[1]!.indexOf('=')), words[1]!.slice(words[1]!.indexOf('=') + 1)];
        const real: Record<string, string | undefined> = { KEY: s.demoKey, CURSOR: s.lastCursor };
        assert.ok(!value.includes('…') || real[name] !== undefined, `README line ${block.at}: nothing to put in ${name}`);
        s.vars[name] = value.includes('…') ? real[name]! : value;
      } else if (words[0] === 'curl') {
        await curl(words, s, block, shown);
      } else if (words[0] === 'npx' && words[1] === 'codebook') {
        if (isSynopsis(words)) usedSynopses.add(text);
        await npxCodebook(words, text, s, block, shown);
      } else if (words[0] === 'openssl') {
        openssl(words);
      } else {
        assert.fail(`README line ${block.at}: no way to run "${text}": teach test/readme.test.ts, or list it in COVERED_ELSEWHERE`);
      }
    }
    // An environment shown as NAME=value lines is one the service accepts.
    if (Object.keys(settings).length > 0) assert.doesNotThrow(() => loadConfig(settings), `the settings at README line ${block.at}`);
  }
  assert.ok(commands > 30, `the README's shell blocks were read (${commands} commands)`);
  assert.deepEqual([...usedSynopses].sort(), Object.keys(SYNOPSES).sort(), 'every CLI synopsis this test fills in is still in the README');
});

test('the commands the README quotes inline work too', async () => {
  const inline = [...README.matchAll(/`(npx codebook [^`]+)`/g)].map((m) => m[1]!).filter((c) => !c.includes('…'));
  assert.ok(inline.length > 0);
  for (const command of inline) await ok(shellWords(command).words.slice(2), command);
});

test("the README's error table lists every code the server sends, at its status, and its example error is the server's", async () => {
  const rows = new Map([...README.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])]));
  for (const code of ERROR_CODES) assert.equal(rows.get(code), ERROR_STATUS[code], `the README's error table: ${code}`);
  const shown = /\{"error":\{"code":"unknown_parameter".*\}\}/.exec(README);
  assert.ok(shown, "the README's example error");
  const example = (JSON.parse(shown[0]) as { error: { message: string; param: string } }).error;
  const ctx = await createTestContext();
  try {
    const res = await ctx.get(`/v1/codes?${example.param}=10`);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.message, example.message);
  } finally {
    await ctx.close();
  }
});
