/**
 * A code's records through time, rebuilt from its changes: what `as_of`
 * reads serve. The importer writes the record of each change as it goes; this
 * replay builds the same records from the change rows alone, for a database
 * that has changes but no versions yet (the migration) and for the codes of a
 * back-dated import, whose changes land before later ones.
 */
import type { ChangeRecord, CodeContent, CodeRecord, CodeStatus } from './records.ts';

/** One record of a code, valid from `validFrom` until `validTo` (exclusive; null: still valid). */
export interface CodeVersion {
  changeId: number;
  codeId: string;
  system: string;
  validFrom: string;
  validTo: string | null;
  status: CodeStatus;
  json: string;
}

/** Orders changes as the feed does, by (effective_date, id). */
export function compareChanges(a: Pick<ChangeRecord, 'effective_date' | 'id'>, b: Pick<ChangeRecord, 'effective_date' | 'id'>): number {
  return a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : a.id - b.id;
}

/**
 * The versions of one code from all of its changes, in any order. Each change
 * sets the fields it names (`after`), the release, and the time of writing;
 * `effective_from` is the date of the change that added it.
 * The record's fields are in the order the importer writes them, so a replayed
 * record is the same text as the one written at import.
 */
export function replayCode(changes: readonly ChangeRecord[]): CodeVersion[] {
  const ordered = [...changes].sort(compareChanges);
  const versions: CodeVersion[] = [];
  let content: CodeContent = { display: '', definition: null, status: 'active', parents: [], attributes: {} };
  // The date of the change that added it, as the importer keeps it: a back-dated revision sorts before that change.
  const effectiveFrom = (ordered.find((c) => c.type === 'added') ?? ordered[0])?.effective_date ?? '';
  for (const change of ordered) {
    content = { ...content, ...(change.after ?? {}) };
    const system = change.code_id.slice(0, change.code_id.indexOf(':'));
    const record: CodeRecord = {
      object: 'code',
      id: change.code_id,
      system,
      code: change.code_id.slice(system.length + 1),
      display: content.display,
      definition: content.definition,
      status: content.status,
      parents: content.parents,
      attributes: content.attributes,
      release: change.release,
      effective_from: effectiveFrom,
      updated_at: change.recorded_at,
    };
    const previous = versions.at(-1);
    if (previous) previous.validTo = change.effective_date;
    versions.push({
      changeId: change.id,
      codeId: change.code_id,
      system,
      validFrom: change.effective_date,
      validTo: null,
      status: content.status,
      json: JSON.stringify(record),
    });
  }
  return versions;
}
