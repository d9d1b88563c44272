/**
 * The import's pass over the stored codes, inside its transaction: the staged
 * rows (in id order) merged with the system's stored codes (read in id order,
 * a page at a time), the changes of each chunk written as the merge goes. The
 * guards that need the whole diff run once it is done; a refusal then rolls
 * everything back. Memory holds one chunk, never the system.
 */
import type { ChangeRecord, ChangeType, CodeContent, CodeRecord, CodeStatus, ContentField } from '../../domain/records.ts';
import { codeOfStoredId, DamagedRecordError } from '../../store/stored-code.ts';
import type { ChangeWrite, CodeWrite, ImportTransaction, StoredCode } from '../../store/store.ts';
import type { CodeCounts } from '../../store/systems-store.ts';
import { changedFields, changeTypeOf, compareBinary, contentHash, pick } from './diff.ts';
import { checkStagedGraph } from './graph-check.ts';
import { refuseBackdating, refuseMassRetirement, refuseReusedRelease } from './guards.ts';
import type { ImportOptions, ImportSummary } from './summary.ts';
import { movesInHierarchy, rebuildHierarchy, writeVersions, type NavigationChange } from './navigation.ts';
import { ImportRejected, type ImportRequest } from './request.ts';
import type { ImportStage, StagedRow } from './stage.ts';

/** Codes diffed and written at a time. */
const CHUNK = 2_000;
/** Stored codes read at a time. */
const PAGE = 5_000;

/** One code of the merge that may need a write. */
type Work = { kind: 'added' | 'changed' | 'suspect'; row: StagedRow } | { kind: 'missing'; id: string };

/** A code the import writes: a change to record, or only a stored record to repair. */
interface Pending {
  id: string;
  code: string;
  type: ChangeType;
  content: CodeContent;
  previous: StoredCode | null;
  /** Empty for an added code; for a code whose content is as stored, the write only repairs its row. */
  fields: ContentField[];
  /** contentHash(content) when the stage has it already (a row of the file), else null. */
  hash: string | null;
}

async function* storedStates(tx: ImportTransaction, system: string): AsyncGenerator<[string, string, CodeStatus]> {
  let after = '';
  for (;;) {
    const page = await tx.codeStatesAfter(system, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)![0];
  }
}

export async function applyStaged(
  tx: ImportTransaction,
  req: ImportRequest,
  stage: ImportStage,
  options: ImportOptions,
): Promise<Omit<ImportSummary, 'durationMs'>> {
  const progress = options.onProgress ?? (() => undefined);
  // Taken once the lock is held, so recorded_at follows the order of change ids.
  const now = (options.now ?? (() => new Date()))().toISOString();
  const codeOf = (id: string) => codeOfStoredId(id, req.system);

  progress('check', 0, stage.rows, 0);
  const graph = await checkStagedGraph(stage, tx, req, codeOf);
  if (graph.errors.length > 0) {
    const what = graph.more
      ? `the first ${graph.errors.length} problems with parents in ${req.file}: the list stops there, so more may follow`
      : `${graph.errors.length} problem(s) with parents in ${req.file}`;
    throw new ImportRejected(`${what}; nothing was imported`, graph.errors);
  }
  const systemLatest = await tx.latestEffectiveDate(req.system);
  // What the back-dating guard holds an import to: the system's latest_effective_date, the
  // latest date of its releases, one that changed nothing included (never before its latest change).
  const releaseLatest = await tx.latestReleaseDate(req.system);
  const guardDate = systemLatest === null || (releaseLatest !== null && releaseLatest > systemLatest) ? releaseLatest : systemLatest;
  const feedLatest = await tx.latestEffectiveDate(null);
  const backdated = systemLatest !== null && req.effectiveDate < systemLatest;
  const releaseKnown = await tx.releaseExists(req.system, req.release);
  let nextId = await tx.nextChangeId();
  const firstId = nextId;

  const counts = { added: 0, revised: 0, retired: 0, reactivated: 0, repaired: 0 };
  const codeCounts: CodeCounts = { active: 0, deprecated: 0, retired: 0 };
  let unchanged = 0;
  let inUse = 0;
  let merged = 0;
  let moved = false;

  const writeChunk = async (work: Work[]) => {
    const contents = stage.contents(work.flatMap((w) => (w.kind === 'missing' ? [] : [w.row.rank])));
    const before = await readStored(
      tx,
      work.flatMap((w) => (w.kind === 'added' ? [] : [w.kind === 'missing' ? w.id : w.row.id])),
    );
    const pending: Pending[] = [];
    for (const w of work) {
      if (w.kind === 'missing') {
        const previous = before.get(w.id)!;
        const content = { ...previous, status: 'retired' as const };
        pending.push({ id: w.id, code: codeOf(w.id), type: 'retired', content, previous, fields: changedFields(previous, content), hash: null });
        continue;
      }
      const { code, line: _line, ...content } = contents.get(w.row.rank)!;
      if (w.kind === 'added') {
        pending.push({ id: w.row.id, code, type: 'added', content, previous: null, fields: [], hash: w.row.hash });
        continue;
      }
      const previous = before.get(w.row.id)!;
      // Same content, but an id with U+FFFD may be the key of a code whose JSON kept an escape: rewritten if so.
      if (w.kind === 'suspect' && previous.wellFormed) {
        unchanged++;
        continue;
      }
      pending.push({
        id: w.row.id,
        code,
        type: changeTypeOf(previous, content),
        content,
        previous,
        fields: changedFields(previous, content),
        hash: w.row.hash,
      });
    }

    const changeWrites: ChangeWrite[] = [];
    const codeWrites: CodeWrite[] = [];
    const recorded: ChangeRecord[] = [];
    const records = new Map<string, string>();
    const parentsMoved: NavigationChange[] = [];
    for (const p of pending) {
      const repair = p.previous !== null && p.fields.length === 0;
      const record: CodeRecord = {
        object: 'code',
        id: p.id,
        system: req.system,
        code: p.code,
        display: p.content.display,
        definition: p.content.definition,
        status: p.content.status,
        parents: p.content.parents,
        attributes: p.content.attributes,
        // A repair records no change: the record keeps the release that last changed it.
        release: repair ? p.previous!.release : req.release,
        effective_from: p.previous ? p.previous.effectiveFrom : req.effectiveDate,
        updated_at: now,
      };
      const json = JSON.stringify(record);
      codeWrites.push({
        id: p.id,
        system: req.system,
        code: p.code,
        status: record.status,
        hash: p.hash ?? contentHash(p.content),
        json,
        display: record.display,
        definition: record.definition,
        root: record.parents.length === 0,
        isNew: p.previous === null,
      });
      if (repair) {
        counts.repaired++;
        continue;
      }
      const change: ChangeRecord = {
        object: 'change',
        id: nextId,
        code_id: p.id,
        type: p.type,
        effective_date: req.effectiveDate,
        release: req.release,
        fields: p.fields,
        before: p.previous ? pick(p.previous, p.fields) : null,
        after: p.previous ? pick(p.content, p.fields) : pick(p.content, ['display', 'definition', 'status', 'parents', 'attributes']),
        recorded_at: now,
      };
      changeWrites.push({
        id: nextId,
        codeId: p.id,
        system: req.system,
        type: p.type,
        effectiveDate: req.effectiveDate,
        release: req.release,
        json: JSON.stringify(change),
      });
      recorded.push(change);
      records.set(p.id, json);
      counts[p.type]++;
      nextId++;
      if (movesInHierarchy(p.content.parents, p.previous === null ? null : p.fields)) parentsMoved.push({ id: p.id, parents: p.content.parents });
    }
    await tx.writeChanges(changeWrites);
    await tx.writeCodes(codeWrites);
    await writeVersions(tx, recorded, records, backdated);
    if (parentsMoved.length > 0) {
      await tx.navigation.replaceParents(parentsMoved);
      moved = true;
    }
    progress('write', merged, stage.rows, merged);
  };

  await tx.expectCodes(req.system, stage.rows);
  progress('write', 0, stage.rows, 0);
  const file = stage.sorted();
  const stored = storedStates(tx, req.system);
  let f = file.next();
  let s = await stored.next();
  let work: Work[] = [];
  while (!f.done || !s.done) {
    const cmp = f.done ? 1 : s.done ? -1 : compareBinary(f.value.id, s.value[0]);
    if (cmp > 0) {
      // Stored, not in the file: a snapshot retires it.
      const [id, , status] = s.value as [string, string, CodeStatus];
      if (status !== 'retired') inUse++;
      if (req.mode === 'snapshot' && status !== 'retired') {
        work.push({ kind: 'missing', id });
        codeCounts.retired++;
      } else {
        codeCounts[status]++;
      }
      s = await stored.next();
    } else {
      const row = f.value as StagedRow;
      codeCounts[row.status]++;
      merged++;
      if (cmp < 0) {
        work.push({ kind: 'added', row });
      } else {
        const [, hash, status] = s.value as [string, string, CodeStatus];
        if (status !== 'retired') inUse++;
        if (hash !== row.hash) work.push({ kind: 'changed', row });
        else if (row.id.includes('\uFFFD')) work.push({ kind: 'suspect', row });
        else unchanged++;
        s = await stored.next();
      }
      f = file.next();
    }
    if (work.length >= CHUNK) {
      await writeChunk(work);
      work = [];
    }
  }
  await writeChunk(work);
  progress('write', merged, merged, merged);

  const changes = nextId - firstId;
  refuseBackdating(req, guardDate, changes);
  refuseMassRetirement(req, counts.retired, inUse);
  refuseReusedRelease(req, releaseKnown, changes);

  await rebuildHierarchy(tx, req.system, moved, codeCounts.active + codeCounts.deprecated + codeCounts.retired);
  const firstChangeId = changes > 0 ? firstId : null;
  const lastChangeId = changes > 0 ? nextId - 1 : null;
  if (!releaseKnown) {
    await tx.recordRelease({
      system: req.system,
      id: req.release,
      effectiveDate: req.effectiveDate,
      mode: req.mode,
      importedAt: now,
      counts: { added: counts.added, revised: counts.revised, retired: counts.retired, reactivated: counts.reactivated },
      firstChangeId,
      lastChangeId,
      codeCounts,
    });
  }
  return {
    system: req.system,
    release: req.release,
    effectiveDate: req.effectiveDate,
    mode: req.mode,
    rows: stage.rows,
    ...counts,
    unchanged,
    unfilteredFeedAt: changes > 0 && feedLatest !== null && req.effectiveDate < feedLatest ? feedLatest : null,
    firstChangeId,
    lastChangeId,
  };
}

/** The stored state of each id, every one of them: a code listed by codeStatesAfter must be readable. */
async function readStored(tx: ImportTransaction, ids: string[]): Promise<Map<string, StoredCode>> {
  const found = new Map<string, StoredCode>();
  if (ids.length === 0) return found;
  for (const stored of await tx.codesById(ids)) found.set(stored.id, stored);
  for (const id of ids) if (!found.has(id)) throw new DamagedRecordError(id, 'it is listed for its system but its record cannot be read back');
  return found;
}
