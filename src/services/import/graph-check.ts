/**
 * The parent graph of a staged import, checked in bounded memory: the rows
 * are nodes numbered by their rank in the stage, their edges two typed arrays
 * (one slot per row, one per edge), parent ids resolved by the stage's index.
 * Every parent must be a code of the system (in the file; for a delta, also
 * stored), and no code may be its own ancestor, including through stored
 * codes above the file's rows (fetched a level at a time).
 */
import type { ImportTransaction } from '../../store/store.ts';
import { describePath, findCycles, MAX_CYCLES } from './hierarchy.ts';
import { MAX_ERRORS, type ListedErrors, type RowError } from './parse.ts';
import type { ImportRequest } from './request.ts';
import type { ImportStage } from './stage.ts';

/** Stored codes asked for in one call. */
const LOOKUP = 500;

interface Unnumbered {
  /** Position in rowEdges (row edge) or, negative, -1 - position in storedEdges. */
  at: number;
  id: string;
}

export async function checkStagedGraph(stage: ImportStage, tx: ImportTransaction, req: ImportRequest, codeOf: (id: string) => string): Promise<ListedErrors> {
  if (stage.edges === 0) return { errors: [], more: false };
  const n = stage.rows;
  const edgeStart = new Int32Array(n + 1);
  const rowEdges = new Int32Array(stage.edges);
  const unnumbered: Unnumbered[] = [];
  /** Rows with parents not in the file (a delta's stored parents), and those parents. */
  const storedParents = new Map<number, string[]>();
  const errors: RowError[] = [];
  /** Whether a problem was left off the list (MAX_ERRORS unknown parents, MAX_CYCLES cycles). */
  let more = false;
  /** Edges to parents not in the file: stored codes (a delta) or an error, decided a batch at a time. */
  let outside: { at: number; child: number; id: string; line: number }[] = [];
  const settleOutside = async () => {
    const found = new Set<string>();
    if (req.mode === 'delta') for (const s of await tx.codesById([...new Set(outside.map((o) => o.id))])) found.add(s.id);
    for (const o of outside) {
      if (found.has(o.id)) {
        unnumbered.push({ at: o.at, id: o.id });
        storedParents.set(o.child, [...(storedParents.get(o.child) ?? []), o.id]);
      } else if (errors.length < MAX_ERRORS) {
        errors.push({ line: o.line, message: `parent ${codeOf(o.id)} is not a code of this system` });
      } else {
        more = true;
      }
    }
    outside = [];
  };
  let e = 0;
  let child = 0;
  for (const [from, to, parent, line] of stage.edgeList()) {
    while (child < from) edgeStart[++child] = e;
    rowEdges[e] = to;
    if (to === -1) {
      outside.push({ at: e, child: from, id: parent, line });
      if (outside.length >= LOOKUP) await settleOutside();
    }
    e++;
  }
  while (child < n) edgeStart[++child] = e;
  await settleOutside();
  if (errors.length > 0) return { errors, more };

  const roots = req.mode === 'snapshot' ? allRows(n) : await rowsWithNewParents(stage, tx);
  const stored = await fetchStoredAncestors(stage, tx, { edgeStart, rowEdges, unnumbered, storedParents }, roots);

  // One graph: the rows, then the stored codes in the order they were fetched.
  const allStart = new Int32Array(n + stored.ids.length + 1);
  allStart.set(edgeStart);
  for (let k = 0; k < stored.ids.length; k++) allStart[n + k] = rowEdges.length + stored.start[k]!;
  allStart[n + stored.ids.length] = rowEdges.length + stored.edges.length;
  const allEdges = new Int32Array(rowEdges.length + stored.edges.length);
  allEdges.set(rowEdges);
  allEdges.set(stored.edges, rowEdges.length);
  for (const { at, id } of unnumbered) allEdges[at >= 0 ? at : rowEdges.length + (-1 - at)] = stored.index.get(id) ?? -1;

  const nodeOf = (node: number) => (node < n ? stage.rowAt(node) : { id: stored.ids[node - n]!, line: -1 });
  const label = (node: number) => {
    const { id, line } = nodeOf(node);
    return `${codeOf(id)} (${line >= 0 ? `line ${line}` : 'stored'})`;
  };
  for (const { root, cycle } of findCycles(allStart, allEdges, roots)) {
    const lines = cycle.filter((node) => node < n).map((node) => stage.rowAt(node).line);
    const path = describePath(cycle.map(label), codeOf(nodeOf(cycle[0]!).id));
    if (lines.length > 0) {
      errors.push({
        line: lines.reduce((a, b) => Math.min(a, b)),
        message: `parents form a cycle (→ means "has parent"): ${path}; remove one of these parents`,
      });
    } else {
      // Stored before cycles were refused, and above this row: the graph would still hold it.
      const under = stage.rowAt(root);
      errors.push({
        line: under.line,
        message: `${codeOf(under.id)} has stored ancestors that form a cycle (→ means "has parent"): ${path}; import a delta row for one of them with a corrected parents field`,
      });
    }
    if (errors.length >= MAX_CYCLES) {
      more = true;
      break;
    }
  }
  return { errors: errors.sort((a, b) => a.line - b.line), more };
}

/** Every row, as many times as it is iterated. */
function allRows(n: number): Iterable<number> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < n; i++) yield i;
    },
  };
}

/**
 * A delta's rows whose parents could close a new cycle: new codes, and codes
 * whose parents differ from the stored ones (a cycle new to the system has at
 * least one new edge). In rank order.
 */
async function rowsWithNewParents(stage: ImportStage, tx: ImportTransaction): Promise<number[]> {
  const roots: number[] = [];
  let batch: { rank: number; id: string }[] = [];
  const settle = async () => {
    const stored = new Map((await tx.codesById(batch.map((b) => b.id))).map((s) => [s.id, s.parents]));
    const contents = stage.contents(batch.map((b) => b.rank));
    for (const { rank, id } of batch) {
      const before = stored.get(id);
      const parents = contents.get(rank)!.parents;
      if (before === undefined || before.length !== parents.length || before.some((p, k) => p !== parents[k])) roots.push(rank);
    }
    batch = [];
  };
  for (const row of stage.sorted()) {
    if (!row.hasParents) continue;
    batch.push({ rank: row.rank, id: row.id });
    if (batch.length >= LOOKUP) await settle();
  }
  await settle();
  return roots.sort((a, b) => a - b);
}

interface RowGraph {
  edgeStart: Int32Array;
  rowEdges: Int32Array;
  unnumbered: Unnumbered[];
  storedParents: Map<number, string[]>;
}

/**
 * Fetches the stored codes reachable from the roots, a level at a time, and
 * numbers them and their edges. A stored code may lead back into the file,
 * whose rows then lead on in turn; stored codes no root reaches are never read.
 */
async function fetchStoredAncestors(stage: ImportStage, tx: ImportTransaction, graph: RowGraph, roots: Iterable<number>) {
  const n = stage.rows;
  const { edgeStart, rowEdges, unnumbered, storedParents } = graph;
  const ids: string[] = [];
  const start: number[] = [];
  const edges: number[] = [];
  const index = new Map<string, number>();
  if (storedParents.size === 0) return { ids, start, edges, index };
  const reached = new Uint8Array(n);
  const rowQueue: number[] = [];
  for (const root of roots) {
    reached[root] = 1;
    rowQueue.push(root);
  }
  const requested = new Set<string>();
  let wanted = new Set<string>();
  for (;;) {
    while (rowQueue.length > 0) {
      const row = rowQueue.pop()!;
      for (let e = edgeStart[row]!; e < edgeStart[row + 1]!; e++) {
        const next = rowEdges[e]!;
        if (next !== -1 && !reached[next]) {
          reached[next] = 1;
          rowQueue.push(next);
        }
      }
      for (const id of storedParents.get(row) ?? []) if (!requested.has(id)) wanted.add(id);
    }
    if (wanted.size === 0) break;
    const level = [...wanted];
    wanted = new Set();
    for (const id of level) requested.add(id);
    for (const node of await tx.codesById(level)) {
      if (index.has(node.id) || stage.rankOf(node.id) !== undefined) continue;
      index.set(node.id, n + ids.length);
      ids.push(node.id);
      start.push(edges.length);
      for (const parent of node.parents) {
        const rank = stage.rankOf(parent);
        const known = rank ?? index.get(parent);
        if (known !== undefined) {
          edges.push(known);
          if (rank !== undefined && !reached[rank]) {
            reached[rank] = 1;
            rowQueue.push(rank);
          }
        } else {
          // Numbered once fetched; a parent that is no longer a code leads nowhere.
          unnumbered.push({ at: -1 - edges.length, id: parent });
          edges.push(-1);
          if (!requested.has(parent)) wanted.add(parent);
        }
      }
    }
  }
  return { ids, start, edges, index };
}
