/** `codebook plans set|list`. */
import type { Plan } from '../domain/access.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { setPlan } from '../services/access/admin.ts';
import { groupHelp, helpHint, output, parseCommand, required, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE =
  'codebook plans set NAME --endpoints codes.list,codes.get,changes.list --rate-per-minute N --monthly-quota N|unlimited [--no-test-keys] [--json]\n       codebook plans list [--json]';

export function describePlan(p: Plan): string[] {
  return [p.name, p.endpoints.join(','), p.ratePerMinute, p.monthlyQuota === null ? 'unlimited' : p.monthlyQuota, p.testKeysAllowed ? 'yes' : 'no'].map(String);
}

const PLAN_HEADERS = ['PLAN', 'ENDPOINTS', 'PER MINUTE', 'PER MONTH', 'TEST KEYS'];

function integer(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new CliError(`${flag} must be a whole number (got "${text}")`, 2);
  return Number(text);
}

export async function plansCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const parsed = parseCommand(
    rest,
    {
      endpoints: { type: 'string' },
      'rate-per-minute': { type: 'string' },
      'monthly-quota': { type: 'string' },
      'no-test-keys': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const { values, positionals } = parsed;
  const out = output(values.json);
  if (action === 'list') {
    takesOnly(parsed, 'codebook plans list', [], 0, USAGE);
    const plans = await (await deps()).store.access.listPlans();
    out.result(plans, table(PLAN_HEADERS, plans.map(describePlan)));
    return;
  }
  if (action !== 'set') throw new CliError(`expected "set" or "list" ${helpHint(USAGE)}`, 2);
  takesOnly(parsed, 'codebook plans set', ['endpoints', 'rate-per-minute', 'monthly-quota', 'no-test-keys'], 1, USAGE);
  if (positionals.length !== 1) throw new CliError(`expected one plan NAME ${helpHint(USAGE)}`, 2);
  const quotaText = required(values['monthly-quota'], '--monthly-quota', USAGE);
  const plan = await setPlan((await deps()).admin, {
    name: positionals[0]!,
    endpoints: required(values.endpoints, '--endpoints', USAGE)
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== ''),
    ratePerMinute: integer(required(values['rate-per-minute'], '--rate-per-minute', USAGE), '--rate-per-minute'),
    monthlyQuota: quotaText === 'unlimited' ? null : integer(quotaText, '--monthly-quota'),
    testKeysAllowed: !values['no-test-keys'],
  });
  out.result(plan, `plan saved\n${table(PLAN_HEADERS, [describePlan(plan)])}`);
}
