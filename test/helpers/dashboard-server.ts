/**
 * A real server on a fresh SQLite file with a headless chromium beside it:
 * what every dashboard browser test starts from. `close()` undoes all of it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { launchBrowser } from './browser.ts';
import { tempDir } from './context.ts';

export interface DashboardServer {
  dir: string;
  /** The SQLite file's DATABASE_URL, for CLI commands run beside the server. */
  databaseUrl: string;
  deps: Deps;
  app: FastifyInstance;
  /** http://127.0.0.1:PORT */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/** prepare runs once the store exists, before the server listens (e.g. to load demo data). */
export async function startDashboard(prefix: string, prepare?: (deps: Deps) => Promise<void>): Promise<DashboardServer> {
  const dir = tempDir(prefix);
  const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
  let deps: Deps | undefined;
  let app: FastifyInstance | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await app?.close();
    await deps?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    deps = await createDeps(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
    await prepare?.(deps);
    app = await buildApp(deps);
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    browser = await launchBrowser();
    return { dir, databaseUrl, deps, app, base, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}
