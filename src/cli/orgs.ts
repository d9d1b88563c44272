/** `codebook orgs create|set-plan|list`. */
import type { Organisation } from '../domain/access.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { createOrg, setOrgPlan, type AdminDeps } from '../services/access/admin.ts';
import { groupHelp, helpHint, output, parseCommand, required, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE = 'codebook orgs create SLUG --plan NAME [--json]\n       codebook orgs set-plan SLUG NAME [--json]\n       codebook orgs list [--json]';

/** The organisation a command names with --org; when there is none, the command that creates it. */
export async function existingOrg(admin: AdminDeps, slug: string): Promise<Organisation> {
  const org = await admin.store.access.getOrg(slug);
  if (org) return org;
  const plans = (await admin.store.access.listPlans()).map((p) => p.name);
  throw new CliError(`no organisation "${slug}"; create it first with: codebook orgs create ${slug} --plan PLAN (plans: ${plans.join(', ')})`);
}

export async function orgsCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const parsed = parseCommand(rest, { plan: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
  const { values, positionals } = parsed;
  const takes = (flags: string[], words: number) => takesOnly(parsed, `codebook orgs ${action}`, flags, words, USAGE);
  const out = output(values.json);
  switch (action) {
    case 'create': {
      takes(['plan'], 1);
      if (positionals.length !== 1) throw new CliError(`expected one SLUG ${helpHint(USAGE)}`, 2);
      const plan = required(values.plan, '--plan', USAGE);
      const org = await createOrg((await deps()).admin, positionals[0]!, plan);
      out.result(org, `organisation ${org.slug} created on plan ${org.plan} (id ${org.id})`);
      return;
    }
    case 'set-plan': {
      takes([], 2);
      if (positionals.length !== 2) throw new CliError(`expected SLUG and plan NAME ${helpHint(USAGE)}`, 2);
      const { admin } = await deps();
      await existingOrg(admin, positionals[0]!);
      const org = await setOrgPlan(admin, positionals[0]!, positionals[1]!);
      out.result(org, `organisation ${org.slug} is now on plan ${org.plan}`);
      return;
    }
    case 'list': {
      takes([], 0);
      const orgs = await (await deps()).store.access.listOrgs();
      out.result(
        orgs,
        table(
          ['SLUG', 'PLAN', 'ID', 'CREATED'],
          orgs.map((o) => [o.slug, o.plan, o.id, o.createdAt]),
        ),
      );
      return;
    }
    default:
      throw new CliError(`expected create, set-plan or list ${helpHint(USAGE)}`, 2);
  }
}
