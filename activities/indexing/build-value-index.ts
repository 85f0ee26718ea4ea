import { performance } from 'node:perf_hooks';
import type { LexiconColumn, ValueLexicon } from '../../core/indexing/lexical-value-index';
import type { IndexConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { ColumnProfile, TableProfile } from '../../core/profiling/column-profile';
import { renderSqlValue } from '../../core/sql-value';
import { profiledRows } from '../profiling/sampled-rows';
import { aggregateForms } from '../database/aggregate-forms';
import type { TargetDatabase } from '../database/target-database';
import { heartbeat, resumeDetails } from '../heartbeat/activity-heartbeat';
import { loadPreparedProfiles } from '../prepared/load-prepared';
import { ARTIFACT_KINDS, artifactKeys, collectionNames, pointIds } from '../prepared/preparation-artifacts';
import { type PreparationDeps } from '../prepared/preparation-deps';
import { upsertEmbedded } from './upsert-embedded';

export interface BuildValueIndexInput {
  database: string;
  databaseId: string;
  versions: PreparationVersions;
  config: IndexConfig;
  queryTimeoutMs: number;
}

export interface BuildValueIndexOutput {
  collection: string;
  textColumns: number;
  numericColumns: number;
  /** Text values embedded into the vector index. */
  valuesIndexed: number;
  /** Values (text and numeric) in the lexical index. */
  lexiconValues: number;
  /** Time spent on the vector value index alone: reading text values, embedding, upserting. */
  valueIndexMs: number;
  resumedAtColumn: number;
  elapsedMs: number;
}

/** Longest value kept in a point's payload (the embedding sees it whole). */
const MAX_PAYLOAD_VALUE_CHARS = 1_000;

/**
 * DexterSQL §3.1.2 (2): the distinct non-NULL values of every text column, at most η per
 * column, embedded into the value index (point id `table.column#hash(value)`, payload table,
 * column and value). The same values, plus numeric columns' values for exact matching, go into
 * the lexical index artifact. Heartbeats after each column; a retry skips re-embedding the
 * columns already done (upserts are idempotent anyway) but re-reads them for the lexicon.
 */
export async function buildValueIndex(deps: PreparationDeps, input: BuildValueIndexInput): Promise<BuildValueIndexOutput> {
  const started = performance.now();
  const { tables } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const db = await deps.databases.openOrFail(input.database);
  const collection = collectionNames(input.databaseId, input.versions).values;
  const embedder = deps.embedders.values;
  await deps.vectors.ensureCollection(collection, embedder.dimension);

  const work = tables.flatMap((t) => t.columns.filter(isLexical).map((column) => ({ table: t, column })));
  const resumedAtColumn = resumeDetails<{ columnsDone: number }>()?.columnsDone ?? 0;
  const lexicon: ValueLexicon = { columns: [] };
  let valuesIndexed = 0;
  let valueIndexMs = 0;
  for (const [i, { table, column }] of work.entries()) {
    const t0 = performance.now();
    const values = await distinctValues(db, table, column, input.config.valuesPerColumn, input.queryTimeoutMs);
    const entry: LexiconColumn = { table: table.table, column: column.column, textual: column.textual, values: [] };
    if (column.textual) {
      entry.values = values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
      if (i >= resumedAtColumn) {
        await upsertEmbedded(
          { embedder, vectors: deps.vectors },
          collection,
          entry.values.map((value) => ({
            id: pointIds.value(column.table, column.column, value),
            text: value,
            payload: { table: column.table, column: column.column, value: value.slice(0, MAX_PAYLOAD_VALUE_CHARS) },
          })),
        );
      }
      valuesIndexed += entry.values.length;
      valueIndexMs += performance.now() - t0;
    } else {
      entry.values = values.map(renderSqlValue);
    }
    lexicon.columns.push(entry);
    heartbeat({ columnsDone: i + 1 });
  }
  await deps.store.put(ARTIFACT_KINDS.valueLexicon, artifactKeys.valueLexicon(input.databaseId, input.versions), lexicon);
  return {
    collection,
    textColumns: lexicon.columns.filter((c) => c.textual).length,
    numericColumns: lexicon.columns.filter((c) => !c.textual).length,
    valuesIndexed,
    lexiconValues: lexicon.columns.reduce((n, c) => n + c.values.length, 0),
    valueIndexMs: Math.round(valueIndexMs),
    resumedAtColumn,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** Text columns, and numeric ones a question may quote a value of; never blobs or empty columns. */
function isLexical(p: ColumnProfile): boolean {
  return p.nonNullCount > 0 && (p.textual || p.format === 'integer' || p.format === 'decimal' || p.format === 'year');
}

/** Up to `limit` distinct non-NULL values, over the same rows (or row sample) the profile read. */
async function distinctValues(db: TargetDatabase, table: TableProfile, column: ColumnProfile, limit: number, timeoutMs: number) {
  // PostgreSQL's json, xml and geometry have no equality: their text is what is distinct.
  const value = aggregateForms(db.dialect, column.column, column.declaredType).value;
  const { source } = await profiledRows(db, table.table, table.rowCount, table.scannedRows ?? table.rowCount, timeoutMs);
  const sql = `SELECT DISTINCT ${value} FROM ${source} WHERE ${value} IS NOT NULL LIMIT ${limit}`;
  return (await db.execute(sql, { timeoutMs, maxRows: limit })).rows.map((r) => r[0]);
}
