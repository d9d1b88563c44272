/** `codebook systems list|show|set`. */
import type { Deps } from '../deps.ts';
import { CliError } from '../errors.ts';
import { allReleases, allSystems, releaseRecord, setSystemFields, systemRecord } from '../services/systems.ts';
import type { SystemFields, SystemInfo } from '../domain/systems.ts';
import { groupHelp, helpHint, output, parseCommand, takesOnly } from './args.ts';
import { table } from './table.ts';

const USAGE =
  'codebook systems list [--json]\n       codebook systems show SYSTEM [--json]\n       codebook systems set SYSTEM [--name TEXT] [--description TEXT] [--url URL] [--publisher TEXT] [--license TEXT] [--json]\n' +
  '       (an empty value clears a field)';

const HEADERS = ['SYSTEM', 'NAME', 'ACTIVE', 'DEPRECATED', 'RETIRED', 'LATEST RELEASE', 'EFFECTIVE'];
const row = (s: SystemInfo) =>
  [s.id, s.name, s.counts.active, s.counts.deprecated, s.counts.retired, s.latestRelease ?? '-', s.latestEffectiveDate ?? '-'].map(String);

function describe(s: SystemInfo): string {
  const lines = [table(HEADERS, [row(s)])];
  for (const [label, value] of [
    ['description', s.description],
    ['url', s.url],
    ['publisher', s.publisher],
    ['license', s.license],
  ] as const) {
    lines.push(`${label}: ${value ?? '-'}`);
  }
  return lines.join('\n');
}

export async function systemsCommand(args: string[], deps: () => Promise<Deps>): Promise<void> {
  const [action, ...rest] = args;
  if (groupHelp(action, USAGE)) return;
  const text = { type: 'string' } as const;
  const parsed = parseCommand(
    rest,
    { name: text, description: text, url: text, publisher: text, license: text, json: { type: 'boolean', default: false } },
    USAGE,
  );
  const { values, positionals } = parsed;
  const out = output(values.json);
  // Every argument is checked before the database is opened (and perhaps created).
  if (!['list', 'show', 'set'].includes(action ?? '')) throw new CliError(`expected list, show or set ${helpHint(USAGE)}`, 2);
  takesOnly(
    parsed,
    `codebook systems ${action}`,
    action === 'set' ? ['name', 'description', 'url', 'publisher', 'license'] : [],
    action === 'list' ? 0 : 1,
    USAGE,
  );
  if (action !== 'list' && positionals.length !== 1) throw new CliError(`expected one SYSTEM ${helpHint(USAGE)}`, 2);
  const { store, admin } = await deps();
  switch (action) {
    case 'list': {
      const systems = await allSystems(store);
      out.result(systems.map(systemRecord), table(HEADERS, systems.map(row)));
      return;
    }
    case 'show': {
      const system = await store.systems.getSystem(positionals[0]!);
      if (system === null) throw new CliError(`no system "${positionals[0]}" (see: codebook systems list)`);
      const releases = await allReleases(store, system.id);
      const releaseLines = table(
        ['RELEASE', 'EFFECTIVE', 'MODE', 'ADDED', 'REVISED', 'RETIRED', 'REACTIVATED'],
        releases.map((r) => [r.id, r.effectiveDate, r.mode, r.counts.added, r.counts.revised, r.counts.retired, r.counts.reactivated].map(String)),
      );
      out.result({ ...systemRecord(system), releases: releases.map(releaseRecord) }, `${describe(system)}\n\n${releaseLines}`);
      return;
    }
    case 'set': {
      const fields: SystemFields = {};
      for (const name of ['name', 'description', 'url', 'publisher', 'license'] as const) {
        const value = values[name];
        if (value !== undefined) fields[name] = value === '' ? null : value;
      }
      const system = await setSystemFields(store, positionals[0]!, fields, new Date(), admin.afterChange);
      out.result(systemRecord(system), `system ${system.id} saved\n${describe(system)}`);
      return;
    }
  }
}
