/** `codebook usage --org SLUG [--month YYYY-MM]`. */
import type { Deps } from '../deps.ts';
import { OUTCOMES, UNCOUNTED_OUTCOMES } from '../domain/access.ts';
import { CliError } from '../errors.ts';
import { MONTH_PATTERN, usageReport } from '../services/access/admin.ts';
import { existingOrg } from './orgs.ts';
import { helpHint, output, parseCommand, required, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE = 'codebook usage --org SLUG [--month YYYY-MM] [--json]';

export async function usageCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const parsed = parseCommand(args, { org: { type: 'string' }, month: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
  const { values } = parsed;
  takesOnly(parsed, 'codebook usage', ['org', 'month'], 0, USAGE);
  const slug = required(values.org, '--org', USAGE);
  if (values.month !== undefined && !MONTH_PATTERN.test(values.month)) {
    throw new CliError(`--month must be a month, YYYY-MM (got "${values.month}") ${helpHint(USAGE)}`, 2);
  }
  const { admin, now } = await deps();
  const org = await existingOrg(admin, slug);
  const month = values.month ?? new Date(now()).toISOString().slice(0, 7);
  const report = await usageReport(admin, org, month);
  const quota = report.plan.monthlyQuota;
  const outcomes = (byOutcome: Record<string, number>) => OUTCOMES.map((o) => byOutcome[o] ?? 0);
  const text = [
    `${report.org} — ${report.month} — plan ${report.plan.name}`,
    `counted toward the allowance: ${report.counted}${quota === null ? ' (unlimited)' : ` of ${quota} (${((100 * report.counted) / quota).toFixed(1)} %)`}`,
    `not counted: ${report.total - report.counted} (${UNCOUNTED_OUTCOMES.map((o) => `${o} ${report.notCounted[o] ?? 0}`).join(', ')})`,
    `all requests: ${report.total}`,
    '',
    table(
      ['KEY', 'NAME', 'MODE', ...OUTCOMES.map((o) => o.toUpperCase())],
      report.byKey.map((k) => [`${k.displayPrefix}…`, k.name, k.mode, ...outcomes(k.byOutcome)]),
    ),
    '',
    table(
      ['DAY', ...OUTCOMES.map((o) => o.toUpperCase())],
      report.byDay.map((d) => [d.day, ...outcomes(d.byOutcome)]),
    ),
  ].join('\n');
  output(values.json).result(report, text);
}
