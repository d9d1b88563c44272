/**
 * Every setting of the service, read from the environment once, validated,
 * and frozen. A bad value stops the process at start-up with a one-line reason.
 */
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';

export type DatabaseConfig = { kind: 'sqlite'; path: string } | PostgresConfig;

export interface PostgresConfig {
  kind: 'postgres';
  url: string;
  poolSize: number;
  /** How long a request waits for a connection (from the pool, or a new one), in ms. */
  connectTimeoutMs: number;
  /** How long a request's statement may take before it is abandoned (503), in ms; imports and migrations are not bound by it. */
  statementTimeoutMs: number;
}

/** PostgreSQL settings other than the URL. */
export type PostgresOptions = Omit<PostgresConfig, 'kind' | 'url'>;

/** Shared limiter state for many instances; null: the in-process limiter. */
export interface RedisConfig {
  url: string;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  prefix: string;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Null: generate one and keep it in the database, shared by every instance. */
  readonly cursorSecret: string | null;
  /** Base URL of the service as users reach it, for links the CLI prints (one-time password links). */
  readonly publicUrl: string;
  /** False when publicUrl is only the default derived from HOST and PORT. */
  readonly publicUrlSet: boolean;
  readonly redis: RedisConfig | null;
  /**
   * Load the demo data set and create the demo organisation with a live key
   * when the database is empty. Default: only for an SQLite file, never
   * unasked on PostgreSQL, where an empty database is a deployment's new home.
   */
  readonly demoData: boolean;
  /** Bytes the compressed forms of /v1 answers may hold in memory (0: compress every time). */
  readonly compressedCacheBytes: number;
  /** Bound of the in-process cache of records and pages, in bytes; 0: no cache. */
  readonly readCacheBytes: number;
  /** How much of an SQLite database file is read through a memory map, in bytes; 0: none (every page read is a system call). */
  readonly sqliteMmapBytes: number;
  /** SQLite: pages of /v1/codes, /v1/changes and /v1/codes/{id}/changes asked together are read on the reader thread. */
  readonly sqlitePagesOnThread: boolean;
  /**
   * The proxies whose X-Forwarded-For, -Proto and -Host are believed: addresses
   * and CIDR ranges (or loopback, linklocal, uniquelocal), as Fastify's
   * trustProxy takes them; null: none, the peer is the client.
   */
  readonly trustProxy: string | null;
}

export const DEFAULTS = {
  PORT: '8080',
  HOST: '127.0.0.1',
  DATABASE_URL: 'sqlite:./data/codebook.db',
  LOG_LEVEL: 'info',
  DATABASE_POOL_SIZE: '10',
  DATABASE_CONNECT_TIMEOUT_MS: '2000',
  DATABASE_STATEMENT_TIMEOUT_MS: '5000',
  REDIS_PREFIX: 'codebook:',
  COMPRESSED_CACHE_MB: '8',
  READ_CACHE_MB: '24',
  SQLITE_MMAP_MB: '2048',
  SQLITE_PAGES_ON_THREAD: '0',
} as const;

/** The most of a file SQLite maps: the Node.js build keeps SQLite's own cap, 0x7fff0000 bytes (64 KiB under 2 GiB). */
export const SQLITE_MMAP_MAX_BYTES = 0x7fff0000;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * sqlite::memory: is a database of one connection, gone with its process, and
 * every import writes through a connection of its own, which would see another,
 * empty one. The app can be built on it (the tools' check of the OpenAPI
 * document); the server and the CLI refuse it with why (`use`).
 */
export function refuseInMemoryDatabase(config: Config, use: string): void {
  if (config.database.kind === 'sqlite' && config.database.path === ':memory:') {
    throw new ConfigError(`DATABASE_URL: sqlite::memory: ${use}; give a file path, e.g. sqlite:./data/codebook.db`);
  }
}

export function parseRedis(url: string | undefined, prefix: string = DEFAULTS.REDIS_PREFIX): RedisConfig | null {
  // Checked with or without REDIS_URL: a bad prefix is a mistake now, not at the day Redis is added.
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(prefix)) {
    throw new ConfigError(`REDIS_PREFIX: 1–64 characters of letters, digits and : _ . -, got "${prefix}"`);
  }
  if (url === undefined || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('REDIS_URL: not a valid URL; expected redis://[:password@]host[:port][/db] or rediss://…');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL: must start with redis:// or rediss:// (the scheme given is "${parsed.protocol}")`);
  }
  if (parsed.hostname === '') throw new ConfigError('REDIS_URL: needs a host, e.g. redis://127.0.0.1:6379');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new ConfigError(`REDIS_URL: the path must be a database number (/0–/99), got "/${db}"`);
  return { url, prefix };
}

function integerSetting(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new ConfigError(`${name}: expected an integer from ${min} to ${max}, got "${text}"`);
  return n;
}

export function parsePostgresOptions(env: NodeJS.ProcessEnv): PostgresOptions {
  const setting = (name: 'DATABASE_POOL_SIZE' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS', min: number, max: number) =>
    integerSetting(name, env[name] ?? DEFAULTS[name], min, max);
  return {
    poolSize: setting('DATABASE_POOL_SIZE', 1, 1000),
    connectTimeoutMs: setting('DATABASE_CONNECT_TIMEOUT_MS', 100, 600_000),
    statementTimeoutMs: setting('DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000),
  };
}

export function parseDatabaseUrl(raw: string, cwd = process.cwd(), postgres: PostgresOptions = parsePostgresOptions({})): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new ConfigError('DATABASE_URL: sqlite: needs a file path, e.g. sqlite:./data/codebook.db');
    if (path === ':memory:') return { kind: 'sqlite', path };
    return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL: not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw, ...postgres };
  }
  throw new ConfigError('DATABASE_URL: must start with sqlite: or postgres://');
}

/** A setting that is 1 or 0; on and off say what each does, for the error. */
function flagSetting(name: string, text: string, on: string, off: string): boolean {
  if (text === '1') return true;
  if (text === '0') return false;
  throw new ConfigError(`${name}: expected 1 (${on}) or 0 (${off}), got "${text}"`);
}

function parseDemoData(text: string | undefined, database: DatabaseConfig): boolean {
  if (text === undefined || text === '') return database.kind === 'sqlite';
  return flagSetting('DEMO_DATA', text, 'load the demo data into an empty database', 'never');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portText = env.PORT ?? DEFAULTS.PORT;
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(`PORT: expected an integer from 0 to 65535, got "${portText}"`);
  }
  const host = parseHost(env.HOST ?? DEFAULTS.HOST);
  const logLevel = (env.LOG_LEVEL ?? DEFAULTS.LOG_LEVEL) as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const cursorSecret = env.CURSOR_SECRET ?? null;
  if (cursorSecret !== null && cursorSecret.length < 32) {
    throw new ConfigError('CURSOR_SECRET: must be at least 32 characters (use e.g. `openssl rand -hex 32`)');
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    // Unset, PUBLIC_URL is derived from HOST, which is what failed (an IPv6 address with a zone, fe80::1%eth0, has no URL form).
    if (env.PUBLIC_URL === undefined) {
      throw new ConfigError(
        `HOST: "${host}" cannot be written in a URL, and PUBLIC_URL (unset) defaults to http://HOST:PORT; set PUBLIC_URL to the address users reach`,
      );
    }
    throw new ConfigError(`PUBLIC_URL: expected an http:// or https:// URL, got "${env.PUBLIC_URL}"`);
  }
  const database = Object.freeze(parseDatabaseUrl(env.DATABASE_URL ?? DEFAULTS.DATABASE_URL, process.cwd(), parsePostgresOptions(env)));
  return Object.freeze({
    port,
    host,
    publicUrl,
    publicUrlSet: env.PUBLIC_URL !== undefined,
    database,
    redis: Object.freeze(parseRedis(env.REDIS_URL, env.REDIS_PREFIX ?? DEFAULTS.REDIS_PREFIX)),
    logLevel,
    cursorSecret,
    demoData: parseDemoData(env.DEMO_DATA, database),
    compressedCacheBytes: integerSetting('COMPRESSED_CACHE_MB', env.COMPRESSED_CACHE_MB ?? DEFAULTS.COMPRESSED_CACHE_MB, 0, 4096) * 1024 * 1024,
    readCacheBytes: integerSetting('READ_CACHE_MB', env.READ_CACHE_MB ?? DEFAULTS.READ_CACHE_MB, 0, 4096) * 1024 * 1024,
    sqliteMmapBytes: Math.min(SQLITE_MMAP_MAX_BYTES, integerSetting('SQLITE_MMAP_MB', env.SQLITE_MMAP_MB ?? DEFAULTS.SQLITE_MMAP_MB, 0, 2048) * 1024 * 1024),
    sqlitePagesOnThread: flagSetting(
      'SQLITE_PAGES_ON_THREAD',
      env.SQLITE_PAGES_ON_THREAD ?? DEFAULTS.SQLITE_PAGES_ON_THREAD,
      'read pages asked together on the reader thread',
      'read every page on the event loop',
    ),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  });
}

/**
 * HOST: an IPv4 or IPv6 address, or a host name (labels of letters, digits,
 * - and _; the last one not all digits, as 256.1.1.1 is a bad address, not a
 * name). Whether a name resolves, or an address is this machine's, only
 * listening finds out (src/server.ts).
 */
function parseHost(text: string): string {
  if (text.trim() === '') throw new ConfigError('HOST: must not be empty');
  if (isIP(text) !== 0) return text;
  const labels = text.replace(/\.$/, '').split('.');
  const isName =
    text.length <= 253 && labels.every((label) => /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/.test(label)) && !/^\d+$/.test(labels.at(-1)!);
  if (!isName) {
    throw new ConfigError(`HOST: expected an IP address to listen on (127.0.0.1, 0.0.0.0 for every address, ::) or a host name, got "${text}"`);
  }
  return text;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: comma-separated addresses, CIDR ranges or names of ranges; empty or unset: trust no proxy. */
export function parseTrustProxy(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address = '', bits, extra] = entry.split('/');
    const version = isIP(address);
    const max = version === 4 ? 32 : 128;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max);
    if (version === 0 || badBits || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY: "${entry}" is not an address, a CIDR range (10.0.0.0/8) or one of ${[...PROXY_NAMES].join(', ')}; list the proxies in front of the service, comma-separated`,
      );
    }
  }
  return entries.join(',');
}
