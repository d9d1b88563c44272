/** Systems and their releases as the layers share them (the store's SystemsStore reads and writes them). */

/** How an import read its file: the whole system, or only the rows present. */
export type ReleaseMode = 'snapshot' | 'delta';

export interface CodeCounts {
  active: number;
  deprecated: number;
  retired: number;
}

export interface ChangeCounts {
  added: number;
  revised: number;
  retired: number;
  reactivated: number;
}

/** The fields an operator sets; null clears one. */
export interface SystemFields {
  /** null: no name of its own, so the name is the id again (the name is never null). */
  name?: string | null;
  description?: string | null;
  url?: string | null;
  publisher?: string | null;
  license?: string | null;
}

export interface SystemInfo {
  id: string;
  name: string;
  description: string | null;
  url: string | null;
  publisher: string | null;
  license: string | null;
  counts: CodeCounts;
  latestRelease: string | null;
  latestEffectiveDate: string | null;
  updatedAt: string;
}

export interface ReleaseInfo {
  system: string;
  /** The release name. */
  id: string;
  /** Import order, across every system. */
  seq: number;
  effectiveDate: string;
  mode: ReleaseMode;
  importedAt: string;
  counts: ChangeCounts;
  firstChangeId: number | null;
  lastChangeId: number | null;
}

/** What an import records, in its transaction: the release and the system's new counts. */
export interface ReleaseWrite extends Omit<ReleaseInfo, 'seq'> {
  codeCounts: CodeCounts;
}
