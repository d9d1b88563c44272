/** `codebook generate`: a synthetic, deterministic data set for benchmarks and tests. */
import type { Deps } from '../deps.ts';
import { CliError, InvalidRequest } from '../errors.ts';
import { generateDataSet, validateGenerateRequest, type GenerateRequest } from '../tools/generate/data-set.ts';
import { flagOf, helpHint, output, parseCommand, required } from './args.ts';
import { progressBar } from './progress.ts';

const USAGE = 'codebook generate --codes N --changes M --dates D [--seed S] --out DIR [--json]';

function integer(text: string | undefined, flag: string): number {
  const value = required(text, flag, USAGE);
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number (got "${value}")`, 2);
  return Number(value);
}

export async function generateCommand(args: string[], _deps: () => Promise<Deps>): Promise<void> {
  const { values, positionals } = parseCommand(
    args,
    {
      codes: { type: 'string' },
      changes: { type: 'string' },
      dates: { type: 'string' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}" ${helpHint(USAGE)}`, 2);
  const request: GenerateRequest = {
    codes: integer(values.codes, '--codes'),
    changes: integer(values.changes, '--changes'),
    dates: integer(values.dates, '--dates'),
    seed: integer(values.seed, '--seed'),
    out: required(values.out, '--out', USAGE),
  };
  try {
    validateGenerateRequest(request);
  } catch (error) {
    if (error instanceof InvalidRequest) throw new CliError(error.describe(flagOf), 2);
    throw error;
  }
  const out = output(values.json);
  const bar = progressBar();
  let summary;
  try {
    summary = await generateDataSet(request, (done, total) => bar.update('write', done, total));
  } finally {
    bar.done();
  }
  const m = summary.manifest;
  out.result(
    { out: request.out, files: summary.files, bytes: summary.bytes, duration_ms: summary.durationMs, manifest: m },
    `generated ${m.codes} codes in ${m.systems.length} systems and ${m.changes} changes over ${m.dates} dates (seed ${m.seed}): ` +
      `${m.imports.length} CSV files, ${(summary.bytes / 1e6).toFixed(1)} MB in ${request.out}; ${(summary.durationMs / 1000).toFixed(2)} s\n` +
      `import them in order with: sh ${request.out}/import.sh   (the order is in ${request.out}/manifest.json)`,
  );
}
