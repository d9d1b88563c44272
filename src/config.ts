/**
 * Every setting of the service, read from the environment once, validated,
 * and frozen. A bad value stops the process at start-up with a one-line reason.
 */
import { isAbsolute, resolve } from 'node:path';

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Null: generate one and keep it in the database, shared by every instance. */
  readonly cursorSecret: string | null;
}

export const DEFAULTS = {
  PORT: '8080',
  HOST: '127.0.0.1',
  DATABASE_URL: 'sqlite:./data/codebook.db',
  LOG_LEVEL: 'info',
} as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseDatabaseUrl(raw: string, cwd = process.cwd()): DatabaseConfig {
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
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL: must start with sqlite: or postgres://');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portText = env.PORT ?? DEFAULTS.PORT;
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(`PORT: expected an integer from 0 to 65535, got "${portText}"`);
  }
  const host = env.HOST ?? DEFAULTS.HOST;
  if (host.trim() === '') throw new ConfigError('HOST: must not be empty');
  const logLevel = (env.LOG_LEVEL ?? DEFAULTS.LOG_LEVEL) as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const cursorSecret = env.CURSOR_SECRET ?? null;
  if (cursorSecret !== null && cursorSecret.length < 32) {
    throw new ConfigError('CURSOR_SECRET: must be at least 32 characters (use e.g. `openssl rand -hex 32`)');
  }
  return Object.freeze({
    port,
    host,
    database: Object.freeze(parseDatabaseUrl(env.DATABASE_URL ?? DEFAULTS.DATABASE_URL)),
    logLevel,
    cursorSecret,
  });
}
