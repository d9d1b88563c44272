/**
 * The parent graph a system will have once an import applies: every parent
 * must be a code of the system, and no code may be its own ancestor. Checked
 * iteratively (explicit queues and stacks, no recursion), so a hierarchy a
 * million codes deep costs time, not stack.
 */
import type { RowError } from './parse.ts';

/** A code that is not in the file, with the parents it has as stored. */
export interface StoredNode {
  id: string;
  parents: string[];
}

export interface ParentGraph {
  /** The file's rows: their lines and their parents' ids (codes of the same system). */
  rows: readonly { line: number; parents: readonly string[] }[];
  /** The rows' ids, in the same order. */
  ids: readonly string[];
  /**
   * Whether a cycle could start at this row: false for a row whose parents
   * are as stored, since a cycle new to the system has at least one new edge.
   */
  mayCloseCycle(row: number): boolean;
  /** Is this id, not in the file, a code of the system (it may then be a parent)? */
  isStored(id: string): boolean;
  /** Stored codes, not in the file, with their stored parents: ancestors of the file's rows. */
  storedAncestors(ids: string[]): Promise<StoredNode[]>;
  /** The code of an id, as messages name it. */
  codeOf(id: string): string;
}

/** The most cycles reported: each is a problem of its own, and one is enough to act on. */
const MAX_CYCLES = 100;
/** Codes shown of a long cycle. */
const SHOWN = 12;

/**
 * Nodes are numbered, the file's rows first and then stored ancestors as
 * they are fetched, and each node's parents are kept as node numbers, one
 * list after another: edges[edgeStart[node]] up to edges[edgeStart[node + 1]],
 * -1 for a stored parent not fetched (not reachable from a row that matters).
 */
interface NumberedGraph {
  edgeStart: number[];
  edges: number[];
  storedIds: string[];
}

/** Problems with the rows' line numbers: unknown parents, then cycles; empty when the graph is sound. */
export async function checkParentGraph(graph: ParentGraph): Promise<RowError[]> {
  const { rows, ids } = graph;
  const index = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) index.set(ids[i]!, i);

  const numbered: NumberedGraph = { edgeStart: [], edges: [], storedIds: [] };
  const { edgeStart, edges } = numbered;
  /** Edges to stored parents, numbered once the parent is fetched. */
  const unnumbered: { at: number; id: string }[] = [];
  /** The rows with stored parents, and those parents. */
  const storedParents = new Map<number, string[]>();
  const errors: RowError[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    edgeStart.push(edges.length);
    for (const parent of row.parents) {
      const node = index.get(parent);
      if (node !== undefined) {
        edges.push(node);
      } else if (graph.isStored(parent)) {
        unnumbered.push({ at: edges.length, id: parent });
        edges.push(-1);
        storedParents.set(i, [...(storedParents.get(i) ?? []), parent]);
      } else {
        errors.push({ line: row.line, message: `parent ${graph.codeOf(parent)} is not a code of this system` });
      }
    }
  }
  if (errors.length > 0) return errors;

  const roots: number[] = [];
  for (let i = 0; i < rows.length; i++) if (graph.mayCloseCycle(i)) roots.push(i);
  if (storedParents.size > 0) await fetchStoredAncestors(graph, index, numbered, unnumbered, storedParents, roots);
  edgeStart.push(edges.length);
  for (const { at, id } of unnumbered) edges[at] = index.get(id) ?? -1;

  const idOf = (node: number) => (node < rows.length ? ids[node]! : numbered.storedIds[node - rows.length]!);
  const label = (node: number) => `${graph.codeOf(idOf(node))} (${node < rows.length ? `line ${rows[node]!.line}` : 'stored'})`;
  for (const { root, cycle } of findCycles(edgeStart, edges, roots)) {
    const lines = cycle.filter((node) => node < rows.length).map((node) => rows[node]!.line);
    const path = describePath(cycle.map(label), graph.codeOf(idOf(cycle[0]!)));
    if (lines.length > 0) {
      errors.push({
        line: lines.reduce((a, b) => Math.min(a, b)),
        message: `parents form a cycle (→ means "has parent"): ${path}; remove one of these parents`,
      });
    } else {
      // Stored before cycles were refused, and above this row: the graph would still hold it.
      errors.push({
        line: rows[root]!.line,
        message: `${graph.codeOf(idOf(root))} has stored ancestors that form a cycle (→ means "has parent"): ${path}; import a delta row for one of them with a corrected parents field`,
      });
    }
    if (errors.length >= MAX_CYCLES) break;
  }
  return errors;
}

/**
 * Fetches the stored codes reachable from the roots, a level at a time (one
 * store call per level of the hierarchy above them), and numbers them and
 * their edges. A stored code may lead back into the file, whose rows then
 * lead on in turn; stored codes no root reaches are never read.
 */
async function fetchStoredAncestors(
  graph: ParentGraph,
  index: Map<string, number>,
  numbered: NumberedGraph,
  unnumbered: { at: number; id: string }[],
  storedParents: Map<number, string[]>,
  roots: number[],
): Promise<void> {
  const { rows } = graph;
  const { edgeStart, edges, storedIds } = numbered;
  const rowEdgesEnd = edges.length;
  const rowEnd = (row: number) => (row + 1 < rows.length ? edgeStart[row + 1]! : rowEdgesEnd);
  const reached = new Uint8Array(rows.length);
  for (const root of roots) reached[root] = 1;
  const rowQueue = [...roots];
  const requested = new Set<string>();
  let wanted = new Set<string>();
  for (;;) {
    while (rowQueue.length > 0) {
      const row = rowQueue.pop()!;
      for (let e = edgeStart[row]!; e < rowEnd(row); e++) {
        const next = edges[e]!;
        if (next !== -1 && !reached[next]) {
          reached[next] = 1;
          rowQueue.push(next);
        }
      }
      for (const id of storedParents.get(row) ?? []) if (!requested.has(id)) wanted.add(id);
    }
    if (wanted.size === 0) return;
    const level = [...wanted];
    wanted = new Set();
    for (const id of level) requested.add(id);
    for (const node of await graph.storedAncestors(level)) {
      if (index.has(node.id)) continue;
      index.set(node.id, rows.length + storedIds.length);
      storedIds.push(node.id);
      edgeStart.push(edges.length);
      for (const parent of node.parents) {
        const known = index.get(parent);
        if (known !== undefined) {
          edges.push(known);
          if (known < rows.length && !reached[known]) {
            reached[known] = 1;
            rowQueue.push(known);
          }
        } else if (graph.isStored(parent)) {
          unnumbered.push({ at: edges.length, id: parent });
          edges.push(-1);
          if (!requested.has(parent)) wanted.add(parent);
        }
        // A stored parent that is no longer a code leads nowhere: it cannot close a cycle.
      }
    }
  }
}

/**
 * Depth-first search from each root along parent edges; each edge back to a
 * node on the current path closes a cycle, the path from that node on.
 */
function* findCycles(edgeStart: readonly number[], edges: readonly number[], roots: readonly number[]): Generator<{ root: number; cycle: number[] }> {
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
function describePath(labels: string[], first: string): string {
  const shown = labels.length > SHOWN ? [...labels.slice(0, SHOWN), `… ${labels.length - SHOWN} more`] : labels;
  return [...shown, first].join(' → ');
}
