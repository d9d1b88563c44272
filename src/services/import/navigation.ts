/**
 * What an import writes, beside codes and changes, for the navigation reads:
 * the system's hierarchy (edges and closure) when any parent changed, and the
 * record each change produced (the versions that `as_of` reads serve). Runs
 * inside the import's transaction, so the reads never see one without the other.
 */
import { closureBudget, computeClosure } from '../../domain/closure.ts';
import type { CodeVersion } from '../../domain/history.ts';
import type { CodeContent, ContentField } from '../../domain/records.ts';
import type { ImportTransaction } from '../../store/store.ts';

export interface NavigationChange {
  id: string;
  content: CodeContent;
  /** null: the code is new. */
  fields: ContentField[] | null;
}

/** Rewrites the system's hierarchy when the import adds a code with parents or changes any code's parents. */
export async function writeHierarchy(tx: ImportTransaction, system: string, changes: readonly NavigationChange[], codes: number): Promise<void> {
  const moved = changes.filter((c) => (c.fields === null ? c.content.parents.length > 0 : c.fields.includes('parents')));
  if (moved.length === 0) return;
  const parents = await tx.navigation.systemParents(system);
  for (const c of moved) {
    if (c.content.parents.length === 0) parents.delete(c.id);
    else parents.set(c.id, [...c.content.parents]);
  }
  await tx.navigation.writeHierarchy(system, parents, computeClosure(parents, closureBudget(codes)));
}

/**
 * Appends the versions of the import's changes. A back-dated import's
 * changes sort before later ones of the same codes, so those codes' versions
 * are replayed from all their changes instead.
 */
export async function writeVersions(tx: ImportTransaction, versions: CodeVersion[], added: ReadonlySet<string>, backdated: boolean): Promise<void> {
  if (backdated) {
    await tx.navigation.rebuildVersions(versions.map((v) => v.codeId));
    return;
  }
  await tx.navigation.appendVersions(versions.filter((v) => added.has(v.codeId)), false);
  await tx.navigation.appendVersions(versions.filter((v) => !added.has(v.codeId)), true);
}
