/**
 * The server: config → deps → app → listen, with the demo data loaded
 * into an empty database when the settings ask for it (its codes before the
 * server listens, its key after), and a graceful stop on SIGTERM/SIGINT that
 * drains in-flight requests and closes the database.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig, refuseInMemoryDatabase, type Config } from './config.ts';
import { DatabaseFileError, InvalidRequest, StoreUnavailableError } from './errors.ts';
import { createDeps, type Deps } from './deps.ts';
import { buildApp } from './http/app.ts';
import { loadDemo } from './services/demo.ts';
import { ImportRejected } from './services/import/importer.ts';
import { demoKeyBanner, ensureDemoAccess } from './services/demo-access.ts';
import { ServerAlreadyRunning, type ServerLock } from './store/server-lock.ts';
import { lockServer } from './store/sqlite/server-lock.ts';

async function start(): Promise<void> {
  const config = loadConfig();
  refuseInMemoryDatabase(
    config,
    "cannot be served: every import (the demo data's, `codebook import`'s) writes through a connection of its own, which would see another, empty database",
  );
  // Until the app's logger exists (Redis may be found missing while connecting), warnings go to stderr.
  let log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void; info(obj: object, msg: string): void } = {
    error: (_obj, msg) => process.stderr.write(`codebook: ${msg}\n`),
    warn: (_obj, msg) => process.stderr.write(`codebook: warning: ${msg}\n`),
    info: (_obj, msg) => process.stderr.write(`codebook: ${msg}\n`),
  };
  // Before anything touches the database: a second server that would count the limits alone must not start at all.
  const lock = await lockDatabase(config, (err) =>
    log.warn({ err }, 'the connection holding the server lock broke: serving on, but another server without REDIS_URL could now start beside this one'),
  );
  const deps = await createDeps(config, {
    // A file that cannot be written is the operator's to fix, reported once per outage in its own words, without a stack.
    onFlushError: (err) => (err instanceof DatabaseFileError ? log.error({}, err.message) : log.error({ err }, 'could not write usage counts; will retry')),
    onWarning: (msg, err) => log.warn({ err }, msg),
    onNotice: (msg) => log.info({}, msg),
    processMetrics: true,
    writable: true,
  });
  const app = await buildApp(deps, { logger: { level: config.logLevel } });
  log = app.log;

  // The demo codes before the server listens, so that it never serves half of them.
  if (config.demoData) await loadDemoCodes(deps, app.log);
  if (!config.demoData && !(await deps.store.hasCodes())) {
    app.log.info(
      'the database holds no codes and demo data is off (DEMO_DATA=1 loads it): load codes with `codebook import`, create an organisation with `codebook orgs create`',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish within 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await deps.close();
      await lock.release();
      app.log.info('stopped');
    } finally {
      clearTimeout(force);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    throw listenFailure(error, config.host, config.port) ?? error;
  }
  // The demo key once the server listens: it is shown only once, so a start that cannot listen must not make one.
  const demoKey = config.demoData ? await demoAccess(deps, app.log) : null;
  if (demoKey) process.stdout.write(`${demoKeyBanner(demoKey, address)}\n`);
}

/** The server lock of the configured database (store/server-lock.ts). */
async function lockDatabase(config: Config, onLost: (error: Error) => void): Promise<ServerLock> {
  if (config.database.kind === 'sqlite') return lockServer(config.database.path);
  // Loaded only when configured: the embedded default never pays for pg.
  const { lockPostgresServer } = await import('./store/postgres/server-lock.ts');
  const { url, connectTimeoutMs } = config.database;
  return lockPostgresServer({ url, connectTimeoutMs }, config.redis !== null, onLost);
}

/** The server cannot listen where HOST and PORT say; its message is one line naming the setting to change. */
class ListenError extends Error {
  override name = 'ListenError';
}

/**
 * Why listening on HOST:PORT failed, in the operator's terms: the address of
 * the failure, the cause and the setting. Null for an error that is not the
 * system's (no errno code): a bug, shown with its stack.
 */
function listenFailure(error: unknown, host: string, port: number): ListenError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('E')) return null;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the port is already in use (PORT)',
    EADDRNOTAVAIL: 'this machine has no such address (HOST)',
    ENOTFOUND: 'the host name does not resolve to an address (HOST)',
    EAI_AGAIN: 'the host name could not be looked up: name resolution failed for now (HOST)',
    EACCES: port < 1024 ? 'a port below 1024 needs privileges this process does not have (PORT)' : 'permission denied (HOST, PORT)',
    EINVAL:
      /^fe80:/i.test(host) && !host.includes('%')
        ? 'a link-local IPv6 address needs its interface, e.g. fe80::1%eth0 (HOST)'
        : 'the system refuses this address (HOST)',
    EAFNOSUPPORT: 'this machine does not support this kind of address (HOST)',
  };
  return new ListenError(`cannot listen on ${where}: ${reasons[code] ?? `${(error as Error).message} (HOST, PORT)`}`, { cause: error });
}

/** The demo data set into an empty database. */
async function loadDemoCodes(deps: Deps, log: FastifyBaseLogger): Promise<void> {
  try {
    if (!(await deps.store.hasCodes())) {
      log.info('empty database: loading the demo data set');
      await loadDemo(deps.store, {
        onRelease: (s) => log.info({ system: s.system, release: s.release, added: s.added, revised: s.revised, retired: s.retired }, 'demo release loaded'),
      });
    }
  } catch (error) {
    // Several instances started at once on an empty database: another one is loading it.
    if (!(error instanceof ImportRejected)) throw error;
    log.warn({ err: error }, 'demo data set not loaded here: another instance is loading it');
  }
}

/** The demo organisation with a live key when there is no organisation; returns that key, to be shown once. */
async function demoAccess(deps: Deps, log: FastifyBaseLogger): Promise<string | null> {
  try {
    return await ensureDemoAccess(deps.admin);
  } catch (error) {
    if (!(error instanceof InvalidRequest)) throw error;
    log.warn('demo organisation created by another instance starting at the same time');
    return null;
  }
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ServerAlreadyRunning || error instanceof ListenError || error instanceof DatabaseFileError) {
    process.stderr.write(`codebook: ${error.message}\n`);
  } else if (error instanceof StoreUnavailableError) {
    // The database is down, or its name, role or password in DATABASE_URL is wrong: the operator's to fix, not a bug.
    process.stderr.write(`codebook: failed to start: ${error.message}\n`);
  } else {
    process.stderr.write(`codebook: failed to start: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exit(1);
});
