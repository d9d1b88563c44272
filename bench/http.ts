/** Small HTTP and process helpers of the benchmark. */
import { spawn, type ChildProcess } from 'node:child_process';
import { get, type Agent } from 'node:http';
import { createServer } from 'node:net';

export interface Response {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export function httpGet(port: number, path: string, headers: Record<string, string>, agent?: Agent): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, headers, agent: agent ?? false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a child that prints "ready" on stdout once it listens. */
export function spawnReady(script: string, env: Record<string, string>, cwd: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => reject(new Error(`${script} exited with ${signal ?? code} before it was ready`)));
  });
}

/** SIGTERM, then SIGKILL if it has not exited within the grace period. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
