/**
 * npm run generate [-- URL] [--out FILE]: writes src/schema.ts, the client's
 * types, from the service's OpenAPI document with openapi-typescript.
 *
 * URL is a running service's /openapi.json. Without it, the script starts the
 * service of this repository (src/main.js, on a temporary SQLite database),
 * reads its document and stops it. The drift test runs this script against a
 * server it starts and compares the result with the committed file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY = join(PACKAGE_DIR, '..', '..');

const BANNER = `/**
 * The Codebook API's types, generated from the service's /openapi.json by
 * openapi-typescript (npm run generate). Do not edit: regenerate. A test
 * fails when this file differs from what the running service documents.
 */

`;

/** The TypeScript source for an OpenAPI document. */
export async function renderSchema(document: string): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: false, exportType: false });
  return BANNER + astToString(ast);
}

/** Starts this repository's server on a temporary database; returns its base URL and a stop function. */
async function startRepositoryServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'codebook-generate-'));
  const child = spawn(process.execPath, [join(REPOSITORY, 'src', 'main.js')], {
    cwd: REPOSITORY,
    env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'codebook.db')}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const listening = /Server listening at (http:\/\/[^"\s]+)/.exec(output);
      if (listening) resolve(listening[1]!);
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, stop };
}

async function fetchDocument(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.text();
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } });
  const out = values.out ?? join(PACKAGE_DIR, 'src', 'schema.ts');
  let document: string;
  if (positionals[0] !== undefined) {
    document = await fetchDocument(positionals[0]);
  } else {
    const server = await startRepositoryServer();
    try {
      document = await fetchDocument(`${server.url}/openapi.json`);
    } finally {
      await server.stop();
    }
  }
  writeFileSync(out, await renderSchema(document));
  process.stderr.write(`wrote ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
