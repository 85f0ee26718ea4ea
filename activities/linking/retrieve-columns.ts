import type { ForeignKeyEdge } from '../../core/exploration/join-paths';
import { bridgeJoins } from '../../core/indexing/bridge-tables';
import { joinStepsBetween } from '../../core/linking/join-columns';
import { columnNameMatches } from '../../core/indexing/column-name-matches';
import { inferJoinKeys } from '../../core/indexing/inferred-joins';
import { LexicalValueIndex, type ValueLexicon } from '../../core/indexing/lexical-value-index';
import { questionLiterals } from '../../core/indexing/question-literals';
import { profileQueryText } from '../../core/indexing/profile-text-style';
import { columnKey, type ColumnRef } from '../../core/preparation/column-ref';
import type { PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { loadPreparedProfiles } from '../prepared/load-prepared';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { requireArtifact } from '../artifacts/require-artifact';
import type { VectorStore } from '../vectors/vector-store';
import type { IndexEmbedders } from '../embeddings/index-embedders';

/** What linking reads of a prepared database besides its vector collections: values, keys, names. */
export interface LinkingIndices {
  lexicon: LexicalValueIndex;
  columnCount: number;
  /** Declared foreign keys, then the join keys inferred from values and names (core/indexing/inferred-joins). */
  foreignKeys: ForeignKeyEdge[];
  /** Every table's column names (for the name matches among found tables). */
  tables: { name: string; columns: string[] }[];
}

/** What retrieval reads of a prepared database, loaded once per database. */
export interface PreparedIndices extends LinkingIndices {
  collections: PreparedDatabaseManifest['collections'];
}

export async function loadLinkingIndices(store: ArtifactStore, prepared: Pick<PreparedDatabaseManifest, 'databaseId' | 'versions'>): Promise<LinkingIndices> {
  const { databaseId, versions } = prepared;
  const lexicon = await requireArtifact<ValueLexicon>(store, ARTIFACT_KINDS.valueLexicon, artifactKeys.valueLexicon(databaseId, versions));
  const { stored, columns } = await loadPreparedProfiles(store, databaseId, versions);
  const { schema } = stored;
  const declared = schema.tables.flatMap((t) => t.foreignKeys);
  return {
    lexicon: new LexicalValueIndex(lexicon),
    columnCount: schema.tables.reduce((n, t) => n + t.columns.length, 0),
    foreignKeys: [...declared, ...inferJoinKeys(columns, lexicon, declared)],
    tables: schema.tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })),
  };
}

export async function loadPreparedIndices(
  store: ArtifactStore,
  manifest: Pick<PreparedDatabaseManifest, 'databaseId' | 'versions' | 'collections'>,
): Promise<PreparedIndices> {
  return { collections: manifest.collections, ...(await loadLinkingIndices(store, manifest)) };
}

export interface RetrieveColumnsOptions {
  /**
   * Profile-index hits kept: `profileHitsPerSqrtColumn × √columns`. A question needs a few
   * columns whatever the schema's size, so the budget grows slower than the schema.
   */
  profileHitsPerSqrtColumn: number;
  minProfileHits: number;
  /** Cosine a value-index hit needs to count. */
  valueMinScore: number;
  valueHitsPerLiteral: number;
  /**
   * Join columns of PK/FK paths up to this many joins between retrieved tables are added
   * (every key of two tables joined directly).
   */
  joinHops: number;
  /** Link tables between retrieved tables are added with their join columns (core/indexing/bridge-tables). */
  bridgeTables: boolean;
  /** Columns of the found tables whose names the question says are added (core/indexing/column-name-matches). */
  nameMatches: boolean;
}

/**
 * Measured on Spider dev and Spider train questions over other databases (bench/linking.ts):
 * with MiniLM profiles, 2-hop join paths and name matches, recall 0.960 / 0.954 at 0.347 / 0.347
 * of the columns kept; one hop without name matches gave 0.948 / 0.943 at 0.332 / 0.330.
 */
export const DEFAULT_RETRIEVAL_OPTIONS: RetrieveColumnsOptions = {
  profileHitsPerSqrtColumn: 1.1,
  minProfileHits: 3,
  valueMinScore: 0.8,
  valueHitsPerLiteral: 3,
  joinHops: 2,
  bridgeTables: true,
  nameMatches: true,
};

export type RetrievalReason = 'profile' | 'value' | 'name' | 'join' | 'bridge';

export interface RetrievedColumn extends ColumnRef {
  reason: RetrievalReason;
  /** Evidence: the profile-index cosine, the matched value, or the join. */
  evidence: string;
}

/**
 * Retrieval-only schema linking (DexterSQL §3.2 Step 1, without its LLM steps): the columns
 * whose profiles the question resembles (profile index), the columns holding values the
 * question quotes (lexical index exactly, value index by similarity), the join columns
 * that connect the tables found, declared or inferred, and the link tables between them. Bare
 * numbers are not looked up: "3" is in most numeric columns and says nothing about which one.
 */
export async function retrieveColumns(
  deps: { vectors: VectorStore; embedders: IndexEmbedders },
  indices: PreparedIndices,
  question: string,
  options: RetrieveColumnsOptions = DEFAULT_RETRIEVAL_OPTIONS,
): Promise<RetrievedColumn[]> {
  const found = new Map<string, RetrievedColumn>();
  const add = (column: RetrievedColumn) => {
    const key = columnKey(column).toLowerCase();
    if (!found.has(key)) found.set(key, column);
  };

  const [questionVector] = await deps.embedders.profiles.embed([profileQueryText(question, deps.embedders.profileText)]);
  const k = Math.max(options.minProfileHits, Math.ceil(options.profileHitsPerSqrtColumn * Math.sqrt(indices.columnCount)));
  for (const hit of await deps.vectors.search(indices.collections.profiles, questionVector, { k })) {
    add({ table: String(hit.payload.table), column: String(hit.payload.column), reason: 'profile', evidence: `cosine ${hit.score.toFixed(3)}` });
  }

  const literals = questionLiterals(question);
  for (const phrase of [...literals.quoted, ...literals.phrases]) {
    if (/^-?[\d.]+$/.test(phrase)) continue;
    for (const hit of indices.lexicon.exact(phrase)) add({ table: hit.table, column: hit.column, reason: 'value', evidence: `'${hit.value}' = "${phrase}"` });
  }
  // Similar (not equal) values: only for what looks like a name or a code, to bound the searches;
  // never for a bare number ("4" is not "similar" to '27.4' in any useful sense).
  const valueQueries = [...literals.quoted, ...literals.phrases.filter((p) => /[A-Z0-9]/.test(p))].filter((p) => !/^-?[\d.]+$/.test(p));
  const valueVectors = await deps.embedders.values.embed(valueQueries);
  for (const [i, phrase] of valueQueries.entries()) {
    for (const hit of await deps.vectors.search(indices.collections.values, valueVectors[i], { k: options.valueHitsPerLiteral })) {
      if (hit.score >= options.valueMinScore)
        add({
          table: String(hit.payload.table),
          column: String(hit.payload.column),
          reason: 'value',
          evidence: `'${hit.payload.value}' ~ "${phrase}" (${hit.score.toFixed(3)})`,
        });
    }
  }

  const tables = [...new Set([...found.values()].map((c) => c.table))];
  if (options.nameMatches) {
    const foundTables = indices.tables.filter((t) => tables.some((name) => name.toLowerCase() === t.name.toLowerCase()));
    for (const m of columnNameMatches(question, foundTables))
      add({ table: m.table, column: m.column, reason: 'name', evidence: `the question says "${m.word}"` });
  }
  // Bridges after direct paths, so a column both give is kept with the direct reason.
  const direct = joinStepsBetween(indices.foreignKeys, tables, options.joinHops, false);
  const bridges = options.bridgeTables ? bridgeJoins(indices.foreignKeys, tables) : [];
  for (const [steps, reason] of [
    [direct, 'join'],
    [bridges, 'bridge'],
  ] as const) {
    for (const step of steps) {
      const evidence = reason === 'join' ? `${step.left} joins ${step.right}` : `${step.left} links ${step.right} to another retrieved table`;
      for (const column of step.leftColumns) add({ table: step.left, column, reason, evidence });
      for (const column of step.rightColumns) add({ table: step.right, column, reason, evidence });
    }
  }
  return [...found.values()];
}
