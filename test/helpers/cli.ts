/**
 * The one way tests run the real operator CLI (bin/codebook.js): a child
 * process with a time limit, on an environment of this process's minus every
 * setting that would change what it does, plus the settings the test gives.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/codebook.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Settings of this process that a child must not inherit by accident (the test's own runner's among them). */
const INHERITED_SETTINGS = [
  'NODE_TEST_CONTEXT',
  'NODE_OPTIONS',
  'REDIS_URL',
  'REDIS_PREFIX',
  'DATABASE_URL',
  'CURSOR_SECRET',
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'DEMO_DATA',
  'PUBLIC_URL',
  'SQLITE_PAGES_ON_THREAD',
  'MALLOC_MMAP_THRESHOLD_',
  'TRUST_PROXY',
];

/** The environment of a child process (CLI or server): this one's, minus the settings above, plus the given ones. */
export function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete env[name];
  return { ...env, ...settings };
}

export interface CliOptions {
  /** Settings for the child (DATABASE_URL, …), on top of childEnv(). */
  settings: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Called with everything the child wrote to stderr so far, each time it writes there. */
  onStderr?: (stderr: string) => void;
}

/** Runs `codebook ARGS`; resolves with its exit code and output, rejects when it outlives timeoutMs (it is killed). */
export function runCodebook(args: string[], { settings, cwd = ROOT, timeoutMs = 30_000, onStderr }: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv(settings), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      onStderr?.(stderr);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codebook ${args.join(' ')} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `codebook ARGS --json` and parses its output; fails with its stderr when it exits non-zero. */
export async function codebookJson<T = unknown>(args: string[], options: CliOptions): Promise<T> {
  const r = await runCodebook([...args, '--json'], options);
  if (r.code !== 0) throw new Error(`codebook ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
