/**
 * How large a system's closure (one row per ancestor and descendant, with the
 * shortest distance between them) may be kept. The database builds it from
 * the edges (store/sql/closure-queries.ts); beyond the budget, hierarchy reads
 * walk the edges instead.
 */

/** Closure rows a system may have: beyond this, reads walk the edges instead (a chain 100 000 deep has 5·10⁹ pairs). */
export function closureBudget(codes: number): number {
  return Math.max(1_000_000, 50 * codes);
}
