/** `codebook import` and `codebook demo`. */
import { existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { loadDemo } from '../services/demo.ts';
import { ImportRejected, runImport, validateRequest, type ImportRequest, type ImportSummary } from '../services/import/importer.ts';
import { stopWhenOrphaned } from './bounded-heap.ts';
import { flagOf, helpHint, oneOf, output, parseCommand, required, type Output, takesOnly } from './args.ts';
import { progressBar } from './progress.ts';

const IMPORT_USAGE =
  'codebook import FILE --system S --release R --effective-date YYYY-MM-DD [--format csv|ndjson] [--mode snapshot|delta] [--allow-backdated] [--allow-mass-retire] [--json]';

export function describeSummary(s: ImportSummary): string {
  const changes = s.firstChangeId === null ? 'no change recorded' : `changes ${s.firstChangeId}–${s.lastChangeId}`;
  return (
    `${s.system} ${s.release} (effective ${s.effectiveDate}, ${s.mode}): ${s.rows} rows — ` +
    `added ${s.added}, revised ${s.revised}, retired ${s.retired}, reactivated ${s.reactivated}, unchanged ${s.unchanged}` +
    `${s.repaired > 0 ? `, repaired ${s.repaired} (stored records rewritten, no change recorded)` : ''}; ` +
    `${changes}; ${(s.durationMs / 1000).toFixed(2)} s`
  );
}

/** Changes filed behind the position of readers who follow every system's changes in one walk. */
export function feedNote(s: ImportSummary): string {
  return (
    `these changes are dated ${s.effectiveDate}, before the latest change of another system (${s.unfilteredFeedAt}): ` +
    `clients following GET /v1/changes without a system filter past ${s.unfilteredFeedAt} will not see them; clients following ?system=${s.system} will`
  );
}

function reportRejection(error: ImportRejected, out: Output): never {
  if (out.json) {
    process.stdout.write(`${JSON.stringify({ error: { message: error.describe(flagOf), errors: error.errors } })}\n`);
  } else {
    for (const e of error.errors) process.stderr.write(`line ${e.line}: ${e.message}\n`);
  }
  throw new CliError(error.describe(flagOf));
}

export async function importCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const { values, positionals } = parseCommand(
    args,
    {
      system: { type: 'string' },
      release: { type: 'string' },
      'effective-date': { type: 'string' },
      format: { type: 'string' },
      mode: { type: 'string', default: 'snapshot' },
      'allow-backdated': { type: 'boolean', default: false },
      'allow-mass-retire': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    IMPORT_USAGE,
  );
  if (positionals.length !== 1) throw new CliError(`expected one FILE, got ${positionals.length} ${helpHint(IMPORT_USAGE)}`, 2);
  const file = positionals[0]!;
  const format = oneOf(values.format ?? (extname(file).toLowerCase() === '.ndjson' ? 'ndjson' : 'csv'), ['csv', 'ndjson'], '--format');
  const request: ImportRequest = {
    file,
    system: required(values.system, '--system', IMPORT_USAGE),
    release: required(values.release, '--release', IMPORT_USAGE),
    effectiveDate: required(values['effective-date'], '--effective-date', IMPORT_USAGE),
    format,
    mode: oneOf(values.mode, ['snapshot', 'delta'], '--mode'),
    allowBackdated: values['allow-backdated'],
    allowMassRetire: values['allow-mass-retire'],
  };
  // Every argument is checked before the database is opened (and perhaps created).
  try {
    validateRequest(request);
  } catch (error) {
    if (error instanceof ImportRejected) throw new CliError(error.describe(flagOf), 2);
    throw error;
  }
  if (!existsSync(file)) throw new CliError(`no such file: ${file}`);
  if (!statSync(file).isFile()) throw new CliError(`not a file: ${file}`);
  const out = output(values.json);
  const { store } = await deps();
  const bar = progressBar();
  const orphaned = stopWhenOrphaned(process.env);
  try {
    const summary = await runImport(store, request, {
      onProgress: (...tick) => {
        orphaned();
        bar.update(...tick);
      },
    });
    bar.done();
    out.result(summary, `imported ${describeSummary(summary)}`);
    if (!out.json && summary.unfilteredFeedAt !== null) process.stderr.write(`codebook: note: ${feedNote(summary)}\n`);
  } catch (error) {
    bar.done();
    if (error instanceof ImportRejected) reportRejection(error, out);
    throw error;
  }
}

export async function demoCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const parsed = parseCommand(args, { json: { type: 'boolean', default: false } }, 'codebook demo [--json]');
  const { values } = parsed;
  takesOnly(parsed, 'codebook demo', [], 0, 'codebook demo [--json]');
  const out = output(values.json);
  const { store } = await deps();
  const bar = progressBar();
  let summaries;
  try {
    summaries = await loadDemo(store, {
      onProgress: bar.update,
      onRelease: (s) => {
        bar.done();
        if (!out.json) process.stdout.write(`imported ${describeSummary(s)}\n`);
      },
      // With --json, stdout holds only the releases imported; a skipped one is said on stderr.
      onSkip: (r) => {
        (out.json ? process.stderr : process.stdout).write(`skipped ${r.system} ${r.release} (effective ${r.effectiveDate}): already loaded\n`);
      },
    });
  } catch (error) {
    bar.done();
    if (error instanceof ImportRejected) reportRejection(error, out);
    throw error;
  }
  bar.done();
  if (out.json) out.result(summaries, '');
}
