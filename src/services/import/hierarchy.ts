/**
 * The parent graph a system will have once an import applies: every parent
 * must be a code of the system, and no code may be its own ancestor. Checked
 * iteratively (an explicit stack, no recursion), so a hierarchy a million
 * codes deep costs time, not stack.
 */
import type { RowError } from './parse.ts';

/** A code that is not in the file, with the parents it has as stored. */
export interface StoredNode {
  code: string;
  parents: string[];
}

export interface ParentGraph {
  /** The file's rows: their codes and parents (codes of the same system). */
  rows: readonly { code: string; line: number; parents: readonly string[] }[];
  /** Is this code, not in the file, a code of the system (it may then be a parent)? */
  isStored(code: string): boolean;
  /** Stored codes, not in the file, with their stored parents: ancestors of the file's rows. */
  storedAncestors(codes: string[]): Promise<StoredNode[]>;
}

/** The most cycles reported: each is a problem of its own, and one is enough to act on. */
const MAX_CYCLES = 100;
/** Codes shown of a long cycle. */
const SHOWN = 12;

/** Problems with the rows' line numbers: unknown parents, then cycles; empty when the graph is sound. */
export async function checkParentGraph(graph: ParentGraph): Promise<RowError[]> {
  const { rows } = graph;
  // Nodes are numbered: the file's rows first, then stored ancestors as they are fetched.
  const index = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) index.set(rows[i]!.code, i);
  const storedCodes: string[] = [];
  const codeOf = (node: number) => (node < rows.length ? rows[node]!.code : storedCodes[node - rows.length]!);

  // Each node's parents as node numbers, one list after another (edgeStart[node] is where its
  // list starts), looked up once; a stored parent gets its number once it is fetched.
  const edgeStart: number[] = [];
  const edges: number[] = [];
  const unnumbered: { at: number; code: string }[] = [];
  let outside: string[] = [];
  const addEdge = (parent: string) => {
    const node = index.get(parent);
    if (node !== undefined) {
      edges.push(node);
      return true;
    }
    if (!graph.isStored(parent)) return false;
    unnumbered.push({ at: edges.length, code: parent });
    edges.push(-1);
    outside.push(parent);
    return true;
  };

  const errors: RowError[] = [];
  for (const row of rows) {
    edgeStart.push(edges.length);
    for (const parent of row.parents) {
      if (!addEdge(parent)) errors.push({ line: row.line, message: `parent ${parent} is not a code of this system` });
    }
  }
  if (errors.length > 0) return errors;

  // The stored ancestors, a level at a time: a cycle through the file's rows may run through them.
  while (outside.length > 0) {
    const wanted = [...new Set(outside)].filter((code) => !index.has(code));
    outside = [];
    for (const node of await graph.storedAncestors(wanted)) {
      if (index.has(node.code)) continue;
      index.set(node.code, rows.length + storedCodes.length);
      storedCodes.push(node.code);
      edgeStart.push(edges.length);
      // A stored parent that is no longer a code leads nowhere: it cannot close a cycle.
      for (const parent of node.parents) addEdge(parent);
    }
  }
  edgeStart.push(edges.length);
  for (const { at, code } of unnumbered) edges[at] = index.get(code) ?? -1;

  const label = (node: number) => (node < rows.length ? `${codeOf(node)} (line ${rows[node]!.line})` : `${codeOf(node)} (stored)`);
  for (const { root, cycle } of findCycles(edgeStart, edges, rows.length)) {
    const lines = cycle.filter((node) => node < rows.length).map((node) => rows[node]!.line);
    const path = describePath(cycle.map(label), codeOf(cycle[0]!));
    if (lines.length > 0) {
      errors.push({ line: lines.reduce((a, b) => Math.min(a, b)), message: `parents form a cycle (→ means "has parent"): ${path}; remove one of these parents` });
    } else {
      // Stored before cycles were refused, and above this row: the graph would still hold it.
      errors.push({
        line: rows[root]!.line,
        message: `${codeOf(root)} has stored ancestors that form a cycle (→ means "has parent"): ${path}; import a delta row for one of them with a corrected parents field`,
      });
    }
    if (errors.length >= MAX_CYCLES) break;
  }
  return errors;
}

/**
 * Depth-first search from each of the first `roots` nodes along parent
 * edges (node's parents: edges[edgeStart[node]] up to edges[edgeStart[node + 1]],
 * -1 for none); each edge back to a node on the current path closes a cycle,
 * the path from that node on.
 */
function* findCycles(edgeStart: readonly number[], edges: readonly number[], roots: number): Generator<{ root: number; cycle: number[] }> {
  const n = edgeStart.length - 1;
  const NEW = 0;
  const ON_PATH = 1;
  const DONE = 2;
  const state = new Uint8Array(n);
  const pathNode = new Int32Array(n);
  /** The next edge to follow of each node on the path. */
  const pathEdge = new Int32Array(n);
  const positionOnPath = new Int32Array(n);
  for (let root = 0; root < roots; root++) {
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
        yield { root, cycle: Array.from(pathNode.subarray(positionOnPath[next]!, depth)) };
      }
    }
  }
}

/** `A (line 2) → B (line 5) → A`, a long cycle shortened. */
function describePath(labels: string[], first: string): string {
  const shown = labels.length > SHOWN ? [...labels.slice(0, SHOWN), `… ${labels.length - SHOWN} more`] : labels;
  return [...shown, first].join(' → ');
}
