/**
 * What an import writes, beside codes and changes, for the navigation reads:
 * the system's hierarchy (edges and closure) when any parent changed, and the
 * record each change produced (the versions that `as_of` reads serve). Runs
 * inside the import's transaction, so the reads never see one without the other.
 */
import { closureBudget } from '../../domain/closure.ts';
import type { CodeVersion } from '../../domain/history.ts';
import type { ChangeRecord, CodeRecord, CodeStatus, ContentField } from '../../domain/records.ts';
import type { ImportTransaction } from '../../store/store.ts';

export interface NavigationChange {
  id: string;
  parents: readonly string[];
}

/** Whether a change moves the code in its hierarchy: an added code with parents, or a change of its parents. */
export function movesInHierarchy(parents: readonly string[], fields: readonly ContentField[] | null): boolean {
  return fields === null ? parents.length > 0 : fields.includes('parents');
}

/**
 * After the last chunk's edges are written: the system's closure, rebuilt by
 * the database from its edges when the import moved any code.
 */
export async function rebuildHierarchy(tx: ImportTransaction, system: string, moved: boolean, codes: number): Promise<void> {
  if (moved) await tx.navigation.rebuildClosure(system, closureBudget(codes));
}

/**
 * Appends the version each change produced. A version is the previous
 * version with the change applied (its fields, release and time), the same
 * replay the migration does: after a back-dated import the stored record
 * (changes applied in the order they were recorded) can differ from the
 * changes applied in effective-date order, which is what `as_of` serves.
 * A back-dated import's changes sort before later ones of the same codes,
 * so those codes' versions are replayed from all their changes instead.
 */
export async function writeVersions(
  tx: ImportTransaction,
  changes: readonly ChangeRecord[],
  records: ReadonlyMap<string, string>,
  backdated: boolean,
): Promise<void> {
  if (backdated) {
    await tx.navigation.rebuildVersions(changes.map((c) => c.code_id));
    return;
  }
  const version = (c: ChangeRecord, json: string, status: CodeStatus): CodeVersion => ({
    changeId: c.id,
    codeId: c.code_id,
    system: c.code_id.slice(0, c.code_id.indexOf(':')),
    validFrom: c.effective_date,
    validTo: null,
    status,
    json,
  });
  const added = changes.filter((c) => c.type === 'added');
  await tx.navigation.appendVersions(
    added.map((c) => version(c, records.get(c.code_id)!, c.after!.status!)),
    false,
  );
  const others = changes.filter((c) => c.type !== 'added');
  const previous = await tx.navigation.latestVersions(others.map((c) => c.code_id));
  await tx.navigation.appendVersions(
    others.map((c) => {
      const base = previous.get(c.code_id);
      const current = records.get(c.code_id)!;
      if (base === undefined) return version(c, current, (JSON.parse(current) as CodeRecord).status);
      const record = { ...(JSON.parse(base) as CodeRecord), ...c.after, release: c.release, updated_at: c.recorded_at };
      return version(c, JSON.stringify(record), record.status);
    }),
    true,
  );
}
