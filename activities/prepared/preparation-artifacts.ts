import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { stringHash64Hex } from '../../core/string-hash';

/**
 * Artifact kinds of the offline preparation and how their keys are built. Every key starts
 * with the database id, then the version of the family it belongs to, so "everything of this
 * database" and "everything of an older version" are both a prefix listing away (publishing a
 * new version deletes the old ones by exactly that).
 */
export const ARTIFACT_KINDS = {
  /** The manifest: where everything of a prepared database is. Key: database id. */
  manifest: 'prepared-database',
  /** Schema + documentation read once per profile version. */
  schema: 'prepared-schema',
  /** One table's column profiles. */
  tableProfile: 'table-profile',
  /** Distinct values per column for exact and fuzzy literal lookup. */
  valueLexicon: 'value-lexicon',
  /** Step 1 output. */
  candidatePairs: 'candidate-pairs',
  /** Step 3 output, one per confirmed pair. */
  pairEvidence: 'pair-evidence',
  /** Step 4 output, one per family. */
  note: 'disambiguation-note',
  /** All notes of the database, what the online stage reads. */
  noteSet: 'disambiguation-notes',
} as const;

/** Which version family each kind belongs to (the manifest belongs to none: it is replaced). */
export const KIND_FAMILY: Record<Exclude<keyof typeof ARTIFACT_KINDS, 'manifest'>, keyof PreparationVersions> = {
  schema: 'profile',
  tableProfile: 'profile',
  valueLexicon: 'index',
  candidatePairs: 'exploration',
  pairEvidence: 'exploration',
  note: 'exploration',
  noteSet: 'exploration',
};

export const artifactKeys = {
  schema: (databaseId: string, v: PreparationVersions) => `${databaseId}/${v.profile}`,
  tableProfilePrefix: (databaseId: string, v: PreparationVersions) => `${databaseId}/${v.profile}/`,
  tableProfile: (databaseId: string, v: PreparationVersions, table: string) => `${databaseId}/${v.profile}/${table}`,
  valueLexicon: (databaseId: string, v: PreparationVersions) => `${databaseId}/${v.index}`,
  candidatePairs: (databaseId: string, v: PreparationVersions) => `${databaseId}/${v.exploration}`,
  pairEvidence: (databaseId: string, v: PreparationVersions, pairId: string) => `${databaseId}/${v.exploration}/${pairId}`,
  note: (databaseId: string, v: PreparationVersions, familyId: string) => `${databaseId}/${v.exploration}/${familyId}`,
  noteSet: (databaseId: string, v: PreparationVersions) => `${databaseId}/${v.exploration}`,
};

/**
 * Vector collections of one index version: names Qdrant and the embedded store both accept.
 * A new version gets new collections, so re-preparing a database never rewrites what readers
 * are searching; the manifest switches them over at publish (publish-preparation.ts).
 */
export function collectionNames(databaseId: string, v: PreparationVersions): { profiles: string; values: string } {
  const base = `${collectionPrefix(databaseId)}${v.index}`;
  return { profiles: `${base}-profiles`, values: `${base}-values` };
}

export function collectionPrefix(databaseId: string): string {
  return `dx-${databaseId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120)}-`;
}

/** Point ids in those collections: one per column in the profile index, one per distinct text value in the value index. */
export const pointIds = {
  profile: (table: string, column: string) => `${table}.${column}`,
  value: (table: string, column: string, value: string) => `${table}.${column}#${stringHash64Hex(value)}`,
};
