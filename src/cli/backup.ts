/** `codebook backup FILE`: a consistent copy of the SQLite database (FILE and FILE.activity), safe while the server runs. */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { helpHint, output, parseCommand } from './args.ts';

const USAGE = 'codebook backup FILE [--json]';

export async function backupCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const { values, positionals } = parseCommand(args, { json: { type: 'boolean', default: false } }, USAGE);
  if (positionals.length !== 1) throw new CliError(`expected one FILE, got ${positionals.length} ${helpHint(USAGE)}`, 2);
  const file = resolve(positionals[0]!);
  // A backup never replaces anything: an older backup may be the only good one.
  if (existsSync(file)) throw new CliError(`${file} already exists; name a new file`);
  if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory()) throw new CliError(`no such folder: ${dirname(file)}`);
  // Opening a database that is not there would create an empty one, and back that up as if it were the data.
  const { database } = loadConfig();
  if (database.kind === 'sqlite' && database.path !== ':memory:' && !existsSync(database.path)) {
    throw new CliError(`no database at ${database.path} (DATABASE_URL): nothing to back up`);
  }
  const { store } = await deps();
  const started = performance.now();
  const [, ...beside] = await store.backupTo(file);
  const bytes = statSync(file).size;
  const seconds = (performance.now() - started) / 1000;
  const files = beside.map((f) => ({ file: f, bytes: statSync(f).size }));
  const also = files.map((f) => `, with ${f.file} (${(f.bytes / 1_048_576).toFixed(1)} MB)`).join('');
  output(values.json).result(
    { file, bytes, files_beside: files },
    `backed up to ${file} (${(bytes / 1_048_576).toFixed(1)} MB${also}, ${seconds.toFixed(2)} s)`,
  );
}
