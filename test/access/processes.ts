/** Real processes for the access tests: the server (src/main.js) and the operator CLI (bin/codebook.js). */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { childEnv, codebookJson, ROOT, runCodebook, type CliResult } from '../helpers/cli.ts';

export { ROOT };

export type { CliResult };

/** Runs `codebook ARGS` against the database file, with a time limit. */
export function runCli(dbPath: string, args: string[], timeoutMs = 20_000): Promise<CliResult> {
  return runCodebook(args, { settings: { DATABASE_URL: `sqlite:${dbPath}` }, timeoutMs });
}

/** Runs the CLI and parses its --json output; fails with its stderr otherwise. */
export function cliJson<T = unknown>(dbPath: string, args: string[]): Promise<T> {
  return codebookJson<T>(args, { settings: { DATABASE_URL: `sqlite:${dbPath}` } });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /** The demo key when this start created it (an empty database), else null. */
  demoKey: string | null;
  /** Waits for the process to end (after a signal); resolves with its exit code or signal. */
  exited(timeoutMs?: number): Promise<string>;
  /** SIGKILL unless already gone. */
  kill(): void;
}

/** Starts `node src/main.js` on the database file and waits until it listens. */
export function startServer(dbPath: string, timeoutMs = 30_000): Promise<ServerProcess> {
  return startServerWith({ DATABASE_URL: `sqlite:${dbPath}` }, timeoutMs);
}

/** Starts `node [nodeFlags] src/main.js` with these settings (DATABASE_URL, REDIS_URL, …) on a free port of 127.0.0.1. */
export function startServerWith(settings: Record<string, string>, timeoutMs = 30_000, nodeFlags: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeFlags, 'src/main.js'], {
    cwd: ROOT,
    // At info, the server says where it listens.
    env: childEnv({ ...settings, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let ended: string | null = null;
  const endWaiters: ((how: string) => void)[] = [];
  child.on('exit', (code, signal) => {
    ended = signal ?? String(code);
    for (const w of endWaiters.splice(0)) w(ended);
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const server: Omit<ServerProcess, 'baseUrl' | 'demoKey'> = {
    child,
    output: () => stdout,
    exited(ms = 15_000) {
      if (ended !== null) return Promise.resolve(ended);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the server did not exit within ${ms} ms`)), ms);
        endWaiters.push((how) => {
          clearTimeout(timer);
          resolve(how);
        });
      });
    },
    kill() {
      if (ended === null && child.exitCode === null) child.kill('SIGKILL');
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error(`the server did not listen within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the server exited before listening; stderr: ${stderr}`));
    });
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const listening = /Server listening at (http:\/\/[^"\s]+)/.exec(stdout);
      if (!listening) return;
      // On an empty database the banner with the demo key follows the listen.
      const demoKey = /Bearer (svc_live_[A-Za-z0-9]{32})/.exec(stdout)?.[1] ?? null;
      if (demoKey === null && /empty database/.test(stdout)) return;
      clearTimeout(timer);
      resolve({ ...server, baseUrl: listening[1]!, demoKey });
    });
  });
}

export interface RefusedStart {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `node src/main.js` with these settings where it is expected not to
 * start, and resolves with how it exited and what it wrote (killed after
 * `timeoutMs`, 30 s by default). `uid` and `gid` run it as another user (this
 * process must be root). PORT 0, HOST 127.0.0.1 and LOG_LEVEL info unless the
 * settings say otherwise.
 */
export async function refusedStart(settings: Record<string, string>, options: { uid?: number; gid?: number; timeoutMs?: number } = {}): Promise<RefusedStart> {
  const { timeoutMs = 30_000, ...user } = options;
  const child = spawn(process.execPath, ['src/main.js'], {
    cwd: ROOT,
    env: childEnv({ LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...settings }),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A temp directory with one SQLite file and the servers started on it: every
 * server is killed and the directory removed after the calling test file.
 */
export function serversOnOneFile(prefix: string): {
  dir: string;
  db: string;
  /** Every server started, in order. */
  servers: ServerProcess[];
  start: () => Promise<ServerProcess>;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, 'codebook.db');
  const servers: ServerProcess[] = [];
  after(() => {
    for (const s of servers) s.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    db,
    servers,
    start: async () => {
      const s = await startServer(db);
      servers.push(s);
      return s;
    },
  };
}
