/** Argument parsing shared by every command: strict, with one-line errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, InvalidRequest, type OptionNames } from '../errors.ts';

/** A service's option as the flag that sets it: effectiveDate → --effective-date. */
export const flagOf: OptionNames = (option) => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function parseCommand<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    // Some of node:util's messages run over several lines (an option value that starts with a dash).
    throw new CliError(`${(error as Error).message.replace(/\s*\n\s*/g, ' ')} ${helpHint(usage)}`, 2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`usage: ${usage}\n`);
    throw new CliError('', 0);
  }
  return parsed;
}

/**
 * Refuses what an action does not take, before the database is opened: a flag other than `flags`
 * (--json and --help go with every action), or more words than `words`. A group's flags are parsed
 * together, so without it `orgs list --plan pro` listed every organisation and `keys create --grace
 * 1h` made a key with no word about the grace.
 */
export function takesOnly(
  parsed: { tokens?: { kind: string; name?: string }[]; positionals: string[] },
  command: string,
  flags: readonly string[],
  words: number,
  usage: string,
): void {
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.name === 'json' || token.name === 'help' || flags.includes(token.name!)) continue;
    throw new CliError(`${command} takes no --${token.name} ${helpHint(usage)}`, 2);
  }
  if (parsed.positionals.length > words) throw new CliError(`unexpected argument "${parsed.positionals[words]}" after ${command} ${helpHint(usage)}`, 2);
}

/** Errors stay on one line; the usage is one --help away. */
export function helpHint(usage: string): string {
  return `(see: ${usage.split(' ').slice(0, 2).join(' ')} --help)`;
}

export function required(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value === '') throw new CliError(`missing ${flag} ${helpHint(usage)}`, 2);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`, 2);
  return value as T;
}

/**
 * A flag's value as a service's parser reads it, checked before the database is opened: a refusal
 * names the flag (the service's own words do not) and is a usage error.
 */
export function flagValue<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidRequest) throw new CliError(`${flag}: ${error.describe(flagOf)}`, 2);
    throw error;
  }
}

export interface Output {
  json: boolean;
  /** Prints a result: its JSON with --json, else the human text. */
  result(value: unknown, text: string): void;
}

export function output(json: boolean): Output {
  return {
    json,
    result(value, text) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
    },
  };
}

/**
 * For command groups (plans, orgs, keys, users): `--help` or no action prints
 * the group's usage; true when the command has nothing more to do.
 */
export function groupHelp(action: string | undefined, usage: string): boolean {
  if (action !== undefined && action !== '--help' && action !== '-h') return false;
  process.stdout.write(`usage: ${usage}\n`);
  if (action === undefined) throw new CliError('', 2);
  return true;
}
