/**
 * The operator's command line. Every command opens the configured database
 * (bringing it to the current schema) and prints one line on failure.
 */
import { ConfigError, loadConfig, refuseInMemoryDatabase } from '../config.ts';
import { createDeps, type Deps } from '../deps.ts';
import { CliError, DatabaseFileError, InvalidRequest, StoreUnavailableError } from '../errors.ts';
import { flagOf } from './args.ts';
import { backupCommand } from './backup.ts';
import { demoCommand, importCommand } from './import.ts';
import { keysCommand } from './keys.ts';
import { orgsCommand } from './orgs.ts';
import { plansCommand } from './plans.ts';
import { systemsCommand } from './systems.ts';
import { usageCommand } from './usage.ts';
import { usersCommand } from './users.ts';
import { IMPORT_WAIT_MS } from '../store/store.ts';
import type { WriteWait } from '../store/sqlite/busy.ts';

type Command = (args: string[], deps: () => Promise<Deps>) => Promise<void>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  import: { run: importCommand, summary: 'import a code file (csv or ndjson) as a release of a system' },
  demo: { run: demoCommand, summary: 'load the demo data set (ISO 4217 currency codes, several releases)' },
  generate: {
    run: (args, deps) => import('./generate.ts').then((m) => m.generateCommand(args, deps)),
    summary: 'write a synthetic, deterministic data set (CSV files and their import order)',
  },
  systems: { run: systemsCommand, summary: 'list code systems and their releases, show one, set its name, publisher, URL, license' },
  plans: { run: plansCommand, summary: 'set or list plans (endpoints, rate per minute, monthly allowance)' },
  orgs: { run: orgsCommand, summary: 'create organisations, change their plan, list them' },
  keys: { run: keysCommand, summary: 'create or roll (the new key shown once), revoke or list the API keys of an organisation' },
  users: { run: usersCommand, summary: 'dashboard users: create (prints a one-time link), link, list, disable' },
  usage: { run: usageCommand, summary: "an organisation's usage in a month, by key, day and outcome" },
  backup: { run: backupCommand, summary: 'copy the SQLite database to a new file, safely while the server runs' },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: codebook COMMAND [options]\n\ncommands:\n${lines.join('\n')}\n\nSettings come from the environment (DATABASE_URL, …); see the README.`;
}

/**
 * On SQLite an import holds the database's one write lock until it commits, a minute or more for a
 * large file: a command's writes (a revocation, a new key, a plan) wait for it as long as another
 * import would, saying so at once on stderr, and are made once it has committed.
 */
function operatorWriteWait(): WriteWait {
  let said = false;
  return {
    waitMs: IMPORT_WAIT_MS,
    // A revocation made during an import must be made: it waits for the commit.
    untilImportCommits: true,
    onWaiting: () => {
      if (said) return;
      said = true;
      process.stderr.write(
        `codebook: waiting for the import in progress to commit (it holds the database's write lock); this command goes on once it has, or gives up after ${IMPORT_WAIT_MS / 60_000} min\n`,
      );
    },
  };
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  let deps: Deps | null = null;
  const getDeps = async () => {
    if (deps !== null) return deps;
    const config = loadConfig();
    refuseInMemoryDatabase(
      config,
      'cannot hold what a command writes: it would be gone when the command ends, and an import writes through a connection of its own, which would see another, empty database',
    );
    return (deps = await createDeps(config, { writeWait: operatorWriteWait() }));
  };
  try {
    if (!command) throw new CliError(`unknown command "${name}" (see: codebook --help)`, 2);
    await command.run(args, getDeps);
    return 0;
  } catch (error) {
    // An unavailable store (PostgreSQL down, or its database or role missing) is the operator's to fix, not a bug.
    if (
      error instanceof CliError ||
      error instanceof ConfigError ||
      error instanceof InvalidRequest ||
      error instanceof StoreUnavailableError ||
      error instanceof DatabaseFileError
    ) {
      const message = error instanceof InvalidRequest ? error.describe(flagOf) : error.message;
      if (message !== '') process.stderr.write(`codebook: ${message}\n`);
      return error instanceof CliError ? error.exitCode : 1;
    }
    process.stderr.write(`codebook: unexpected error: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await (deps as Deps | null)?.close();
  }
}
