/**
 * The published artefact, not the source tree: `npm pack` builds the client
 * (prepack) into a tarball, which is installed into an empty project and used
 * from plain JavaScript against a running server (on this Node.js and on the
 * machine's own older one when there is one), from TypeScript under
 * `tsc --strict`, and from a real browser, where it refuses to start.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts';
import { tempDir } from '../helpers/context.ts';
import { codeRows, startTestServer, type TestServer } from './server.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = join(ROOT, 'clients', 'typescript');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

let server: TestServer;
let key: string;
let dir: string;
let project: string;
let packed: { filename: string; files: { path: string }[] };

before(async () => {
  server = await startTestServer();
  key = await server.customer();
  await server.importRows(codeRows(30), { system: 'alpha', release: 'r1', effectiveDate: '2024-01-01' });
  dir = tempDir('codebook-client-pack-');
  const pack = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  // prepack's own output comes before the JSON.
  packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[\n'))) as (typeof packed)[])[0]!;
  project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: project, timeout: 120_000 });
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CONSUMER_JS = `
import { Codebook, CodeNotFoundError, CodebookError } from '@codebook/client';
const codebook = new Codebook({ baseUrl: process.env.BASE_URL }); // the key from CODEBOOK_API_KEY
const code = await codebook.codes.get('alpha:C007');
const page = await codebook.codes.list({ limit: 4 });
const ids = [];
for await (const c of codebook.codes.list({ system: 'alpha', limit: 8 })) ids.push(c.id);
let notFound = null;
try {
  await codebook.codes.get('alpha:NOPE');
} catch (e) {
  notFound = { isClass: e instanceof CodeNotFoundError, isBase: e instanceof CodebookError, code: e.code, status: e.status };
}
console.log(JSON.stringify({ display: code.display, firstPage: page.data.length, hasMore: page.hasMore, ids: ids.length, last: ids.at(-1), notFound, minute: codebook.rateLimit?.minute?.limit }));
`;

const CONSUMER_TS = `
import { Codebook, CodeNotFoundError, RateLimitExceededError, type Change, type Code, type Page, type RateLimitState } from '@codebook/client';

const codebook = new Codebook({ apiKey: 'svc_live_${'x'.repeat(32)}', baseUrl: 'http://127.0.0.1:8080', maxRetries: 3, timeoutMs: 10_000 });

export async function main(signal: AbortSignal): Promise<string[]> {
  const code: Code = await codebook.codes.get('iso4217:EUR', { signal });
  const status: 'active' | 'deprecated' | 'retired' = code.status;
  const page: Page<Code> = await codebook.codes.list({ system: 'iso4217', status: 'active', limit: 50 });
  const next: string | undefined = page.nextCursor;
  const seen: string[] = [status, String(page.hasMore), next ?? ''];
  for await (const change of codebook.changes.list({ type: 'retired', effective_from: '2024-01-01' })) seen.push(change.code_id);
  const feed = codebook.changes.follow({ since: null, system: 'iso4217', signal });
  for await (const change of feed) {
    const c: Change = change;
    seen.push(c.type, feed.position);
  }
  const limits: RateLimitState | null = codebook.rateLimit;
  seen.push(String(limits?.minute?.remaining));
  try {
    await codebook.codes.changes('iso4217:HRK');
  } catch (error) {
    if (error instanceof CodeNotFoundError) seen.push(error.code);
    else if (error instanceof RateLimitExceededError) seen.push(String(error.retryAfter));
  }
  // @ts-expect-error offset paging does not exist: collections page with cursors only
  codebook.codes.list({ offset: 100 });
  // @ts-expect-error a status the API does not have
  codebook.codes.list({ status: 'deleted' });
  // @ts-expect-error a code is not a change
  const wrong: Change = code;
  void wrong;
  return seen;
}
`;

describe('the packed client', () => {
  test('the tarball holds the build, the README and the licence, and nothing else', () => {
    const paths = packed.files.map((f) => f.path).sort();
    for (const path of paths) assert.match(path, /^(dist\/[a-z-]+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/, path);
    for (const needed of ['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'README.md', 'LICENSE', 'package.json'])
      assert.ok(paths.includes(needed), needed);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', '@codebook', 'client', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(installed.name, '@codebook/client');
    assert.equal(installed.dependencies, undefined);
    assert.deepEqual(
      readFileSync(join(project, 'package-lock.json'), 'utf8').match(/"node_modules\/[^"]+"/g),
      ['"node_modules/@codebook/client"'],
      'installs nothing else',
    );
  });

  const expected = {
    display: 'Code 7',
    firstPage: 4,
    hasMore: true,
    ids: 30,
    last: 'alpha:C029',
    notFound: { isClass: true, isBase: true, code: 'code_not_found', status: 404 },
    minute: 1_000_000,
  };

  test('works from plain JavaScript (ESM) against a running server', async () => {
    writeFileSync(join(project, 'consumer.mjs'), CONSUMER_JS);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: project,
      env: { ...process.env, CODEBOOK_API_KEY: key, BASE_URL: server.url },
      timeout: 30_000,
    });
    assert.deepEqual(JSON.parse(stdout), expected);
  });

  test("works on the machine's own Node.js too, when it is another version", async (t) => {
    const system = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path));
    const version = system ? (await run(system, ['--version'])).stdout.trim() : null;
    if (!system || version === process.version) {
      t.diagnostic(`no Node.js other than ${process.version} on this machine`);
      return;
    }
    t.diagnostic(`also ran on ${version}`);
    writeFileSync(join(project, 'consumer.mjs'), CONSUMER_JS);
    const { stdout } = await run(system, ['consumer.mjs'], {
      cwd: project,
      env: { ...process.env, CODEBOOK_API_KEY: key, BASE_URL: server.url },
      timeout: 30_000,
    });
    assert.deepEqual(JSON.parse(stdout), expected);
  });

  test('type-checks a TypeScript consumer with tsc --strict (records, parameters, errors, follow), and refuses wrong ones', async () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    const flags = ['--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    const result = await run(TSC, [...flags, 'consumer.ts'], { cwd: project, timeout: 120_000 }).catch((e: { stdout: string }) => e);
    assert.equal('stdout' in result ? result.stdout : '', '', 'tsc reported errors');
    // The types are real: a misuse that the file does not expect is an error.
    writeFileSync(
      join(project, 'misuse.ts'),
      `import { Codebook } from '@codebook/client';\nconst c = new Codebook();\nconst n: number = (await c.codes.get('a:b')).display;\nvoid n;\n`,
    );
    const misuse = await run(TSC, [...flags, 'misuse.ts'], { cwd: project, timeout: 120_000 }).then(
      () => ({ stdout: '' }),
      (e: { stdout: string }) => e,
    );
    assert.match(misuse.stdout, /misuse\.ts\(3,7\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });
});

/** What the README's examples use without defining it: the reader's own mirror, and Node.js's process. */
const README_PREAMBLE = `
declare const mirror: { loadPosition(): Promise<string | null>; apply(change: import('@codebook/client').Change, position: string): Promise<void> };
declare const process: { env: Record<string, string | undefined>; once(event: string, listener: () => void): void };
`;

describe('the READMEs', () => {
  test("every TypeScript example (the client's README, the main README's Client library) type-checks with tsc --strict against the packed client", async () => {
    const examples = [join(PACKAGE, 'README.md'), join(ROOT, 'README.md')].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({ file, code: m[1]! })),
    );
    assert.ok(examples.length >= 9, `found ${examples.length} examples`);
    const files = examples.map(({ code }, i) => {
      const file = `readme-${i + 1}.ts`;
      writeFileSync(join(project, file), `${README_PREAMBLE}${code}\nexport {};\n`);
      return file;
    });
    const result = await run(TSC, ['--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', ...files], {
      cwd: project,
      timeout: 120_000,
    }).catch((e: { stdout: string }) => e);
    const where = examples.map(({ file }, i) => `readme-${i + 1}.ts: ${file.slice(ROOT.length)}`).join(', ');
    assert.equal('stdout' in result ? result.stdout : '', '', `tsc reported errors in the README examples (${where})`);
  });
});

const skipBrowser = chromiumMissing();
if (skipBrowser) console.log(`# ${skipBrowser}`);

describe('the packed client in a web page', { skip: skipBrowser }, () => {
  let site: Server;
  let origin: string;

  before(async () => {
    // The consumer project served as a static site: the page imports the installed package.
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' };
    site = createServer((req, res) => {
      const path = normalize(join(project, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
      if (!path.startsWith(project) || !existsSync(path)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    writeFileSync(
      join(project, 'page.html'),
      `<!doctype html><title>client</title><script type="module">
import { Codebook } from '/node_modules/@codebook/client/dist/index.js';
const results = {};
try { new Codebook({ apiKey: 'svc_live_${'x'.repeat(32)}', baseUrl: '${server.url}' }); results.refused = null; } catch (e) { results.refused = e.message; }
const allowed = new Codebook({ apiKey: '${key}', baseUrl: '${server.url}', dangerouslyAllowBrowser: true, maxRetries: 0 });
try { await allowed.codes.get('alpha:C000'); results.call = 'answered'; } catch (e) { results.call = e.name; }
window.results = results;
</script>`,
    );
  });
  after(() => new Promise<void>((resolve) => site.close(() => resolve())));

  test('refuses to start without dangerouslyAllowBrowser, saying keys are server-side secrets; allowed, it still cannot read the API from another origin', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/page.html`);
      await page.waitForFunction(() => (globalThis as unknown as { results?: unknown }).results !== undefined, undefined, { timeout: 15_000 });
      const results = (await page.evaluate(() => (globalThis as unknown as { results: unknown }).results)) as { refused: string | null; call: string };
      assert.match(results.refused ?? '', /refuses to run in a web browser: API keys are server-side secrets/);
      assert.match(results.refused ?? '', /dangerouslyAllowBrowser: true/);
      // The API sends no CORS headers: the browser withholds the answer, and the client reports a failed connection.
      assert.equal(results.call, 'CodebookConnectionError');
    } finally {
      await browser.close();
    }
  });
});
