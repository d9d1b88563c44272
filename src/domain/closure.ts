/**
 * The transitive closure of a system's parent graph: one row per (ancestor,
 * descendant) pair, with the shortest distance between them. Parents form a
 * graph, not a tree, so a pair reached by several paths is one row. The graph
 * is acyclic (the importer refuses cycles). Iterative: a deep hierarchy costs
 * time, not stack.
 */

export interface ClosureRow {
  ancestor: string;
  descendant: string;
  depth: number;
}

/** Closure rows a system may have: beyond this, reads walk the edges instead (a chain 100 000 deep has 5·10⁹ pairs). */
export function closureBudget(codes: number): number {
  return Math.max(1_000_000, 50 * codes);
}

/**
 * The closure of `parents` (child → its parents; codes without parents need
 * not be keys), or null when it has more than `budget` rows. The size is
 * bounded first by counting paths (exact for a forest, where it costs one
 * pass); only a graph with shared ancestors may need the exact sets to tell.
 */
export function computeClosure(parents: ReadonlyMap<string, readonly string[]>, budget: number): ClosureRow[] | null {
  const order = topologicalOrder(parents);
  const paths = new Map<string, number>();
  let bound = 0;
  let forest = true;
  for (const node of order) {
    let count = 0;
    const ps = parents.get(node) ?? [];
    if (ps.length > 1) forest = false;
    for (const p of ps) count += 1 + (paths.get(p) ?? 0);
    paths.set(node, count);
    bound += count;
  }
  if (bound > budget && forest) return null;

  const ancestors = new Map<string, Map<string, number>>();
  const rows: ClosureRow[] = [];
  for (const node of order) {
    const ps = parents.get(node);
    if (!ps || ps.length === 0) continue;
    const mine = new Map<string, number>();
    for (const p of ps) {
      mine.set(p, 1);
      const above = ancestors.get(p);
      if (!above) continue;
      for (const [a, d] of above) {
        const known = mine.get(a);
        if (known === undefined || d + 1 < known) mine.set(a, d + 1);
      }
    }
    ancestors.set(node, mine);
    for (const [a, d] of mine) rows.push({ ancestor: a, descendant: node, depth: d });
    if (rows.length > budget) return null;
  }
  return rows;
}

/** Every key of `parents`, each after all of its ancestors that are keys. */
function topologicalOrder(parents: ReadonlyMap<string, readonly string[]>): string[] {
  const order: string[] = [];
  const state = new Map<string, 1 | 2>(); // 1: on the stack, 2: placed
  for (const start of parents.keys()) {
    if (state.has(start)) continue;
    const stack: { node: string; next: number }[] = [{ node: start, next: 0 }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const ps = parents.get(top.node) ?? [];
      if (top.next < ps.length) {
        const p = ps[top.next++]!;
        // A parent that is not a key has no parents: nothing to place before it.
        if (!state.has(p) && parents.has(p)) {
          state.set(p, 1);
          stack.push({ node: p, next: 0 });
        }
      } else {
        stack.pop();
        state.set(top.node, 2);
        order.push(top.node);
      }
    }
  }
  return order;
}
