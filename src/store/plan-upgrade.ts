/**
 * When the API grows, a plan that included every endpoint there was gets the
 * new ones too (it was meant as "everything"); any other plan stays as the
 * operator set it. A migration runs this once, with the endpoints that existed
 * before it and the ones it adds, in each SQL dialect.
 */

const jsonList = (names: readonly string[]) => JSON.stringify([...names]);

function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export function planUpgradeSqlite(before: readonly string[], added: readonly string[]): string {
  const hadEvery = `(SELECT count(DISTINCT value) FROM json_each(plans.endpoints) WHERE value IN (${before.map(sqlText).join(', ')})) = ${before.length}`;
  return added
    .map(
      (name) => `UPDATE plans SET endpoints = json_insert(endpoints, '$[#]', ${sqlText(name)})
      WHERE ${hadEvery} AND NOT EXISTS (SELECT 1 FROM json_each(plans.endpoints) WHERE value = ${sqlText(name)});`,
    )
    .join('\n');
}

export function planUpgradePostgres(before: readonly string[], added: readonly string[]): string {
  return added
    .map(
      (name) => `UPDATE plans SET endpoints = (endpoints::jsonb || ${sqlText(jsonList([name]))}::jsonb)::text
      WHERE endpoints::jsonb @> ${sqlText(jsonList(before))}::jsonb AND NOT endpoints::jsonb @> ${sqlText(jsonList([name]))}::jsonb;`,
    )
    .join('\n');
}

/** The endpoints every plan could include before search and systems, and the ones they added. */
export const BEFORE_SEARCH = ['codes.list', 'codes.get', 'changes.list'] as const;
export const ADDED_WITH_SEARCH = ['codes.search', 'systems.list'] as const;

/** The endpoints every plan could include before the navigation endpoints, and the ones they added. */
export const BEFORE_NAVIGATION = [...BEFORE_SEARCH, ...ADDED_WITH_SEARCH] as const;
export const ADDED_WITH_NAVIGATION = ['codes.hierarchy', 'codes.batch'] as const;
