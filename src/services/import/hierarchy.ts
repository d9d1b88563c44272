/**
 * Cycles in a parent graph of numbered nodes (graph-check.ts builds it),
 * found iteratively (explicit stacks, no recursion), so a hierarchy a million
 * codes deep costs time, not stack; and how a cycle is shown.
 */

/** The most cycles reported: each is a problem of its own, and one is enough to act on. */
export const MAX_CYCLES = 100;
/** Codes shown of a long cycle. */
const SHOWN = 12;

/**
 * Depth-first search from each root along parent edges; each edge back to a
 * node on the current path closes a cycle, the path from that node on.
 */
export function* findCycles(edgeStart: ArrayLike<number>, edges: ArrayLike<number>, roots: Iterable<number>): Generator<{ root: number; cycle: number[] }> {
  const n = edgeStart.length - 1;
  const NEW = 0;
  const ON_PATH = 1;
  const DONE = 2;
  const state = new Uint8Array(n);
  const pathNode = new Int32Array(n);
  /** The next edge to follow of each node on the path. */
  const pathEdge = new Int32Array(n);
  const positionOnPath = new Int32Array(n);
  for (const root of roots) {
    if (state[root] !== NEW) continue;
    pathNode[0] = root;
    pathEdge[0] = edgeStart[root]!;
    positionOnPath[root] = 0;
    state[root] = ON_PATH;
    let depth = 1;
    while (depth > 0) {
      const node = pathNode[depth - 1]!;
      const edge = pathEdge[depth - 1]!;
      if (edge === edgeStart[node + 1]) {
        state[node] = DONE;
        depth--;
        continue;
      }
      pathEdge[depth - 1] = edge + 1;
      const next = edges[edge]!;
      if (next === -1) continue;
      if (state[next] === NEW) {
        state[next] = ON_PATH;
        positionOnPath[next] = depth;
        pathNode[depth] = next;
        pathEdge[depth] = edgeStart[next]!;
        depth++;
      } else if (state[next] === ON_PATH) {
        yield { root, cycle: Array.from(pathNode.subarray(positionOnPath[next], depth)) };
      }
    }
  }
}

/** `A (line 2) → B (line 5) → A`, a long cycle shortened. */
export function describePath(labels: string[], first: string): string {
  const shown = labels.length > SHOWN ? [...labels.slice(0, SHOWN), `… ${labels.length - SHOWN} more`] : labels;
  return [...shown, first].join(' → ');
}
