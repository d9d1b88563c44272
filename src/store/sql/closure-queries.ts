/**
 * A system's closure built by the database from its edges, on both backends
 * (the same SQL; only the placeholders differ), so that an import keeps no
 * part of the hierarchy in memory, whatever its size.
 *
 * First a bound: the codes are walked down from the roots, one row per path,
 * and the lengths of the paths are summed. In a forest that sum is the number
 * of closure rows exactly; where codes have several parents it is at least
 * that. The walk stops after `cap` rows, so a graph whose paths multiply
 * costs no more than the budget. Within the budget, one statement walks every
 * code up to its ancestors and keeps the shortest distance of each pair.
 */

/** Placeholder n (from 1) of the backend: `?1` on SQLite, `$1` on PostgreSQL. */
export type Placeholder = (n: number) => string;

/** Parameters: 1 and 2 the system's id range, 3 the most rows to walk. Columns: paths, pairs. */
export function closureBoundSql(p: Placeholder): string {
  return `WITH RECURSIVE down (id, depth) AS (
      SELECT DISTINCT e.parent, 0 FROM code_edges e
       WHERE e.child >= ${p(1)} AND e.child < ${p(2)} AND NOT EXISTS (SELECT 1 FROM code_edges a WHERE a.child = e.parent)
      UNION ALL
      SELECT e.child, d.depth + 1 FROM down d JOIN code_edges e ON e.parent = d.id
    )
    SELECT count(*) AS paths, coalesce(sum(depth), 0) AS pairs FROM (SELECT depth FROM down LIMIT ${p(3)}) walked`;
}

/** Parameters: 1 and 2 the system's id range. */
export function closureInsertSql(p: Placeholder): string {
  return `WITH RECURSIVE up (descendant, ancestor, depth) AS (
      SELECT child, parent, 1 FROM code_edges WHERE child >= ${p(1)} AND child < ${p(2)}
      UNION ALL
      SELECT u.descendant, e.parent, u.depth + 1 FROM up u JOIN code_edges e ON e.child = u.ancestor
    )
    INSERT INTO code_closure (ancestor, descendant, depth) SELECT ancestor, descendant, min(depth) FROM up GROUP BY ancestor, descendant`;
}

/** Whether a closure whose walk gave `paths` rows (of at most `cap`) and `pairs` as its bound is kept. */
export function closureFits(paths: number, pairs: number, cap: number, budget: number): boolean {
  return paths < cap && pairs <= budget;
}
