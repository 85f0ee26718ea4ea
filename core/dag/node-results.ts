import type { SqlRow } from '../sql-value';

/**
 * What a solved node hands to the workflow and to its downstream nodes. The rows themselves
 * stay in the artifact store under `ref` (workflow history carries only this summary), so a
 * large upstream result reaches a downstream node on any worker, within Temporal's payload
 * limits whatever its size.
 */
export interface NodeResultRef {
  id: number;
  question: string;
  /** Artifact key of the stored rows. */
  ref: string;
  /** Inline: at most θ rows, substituted as a value list; relation: a named relation `n<k>`. */
  passedAs: 'inline' | 'relation';
  columns: string[];
  rowCount: number;
  /**
   * The node's SQL with everything upstream folded in (value lists, and relations as common
   * table expressions): one self-contained query. The root's is the route's candidate SQL.
   */
  composedSql: string;
}

/** Why a node's result is not good enough to build on (DecoSearch refines the topology then). */
export type NodeFailure = 'error' | 'empty' | 'all-null';

export interface NodeRun {
  ok: boolean;
  failure?: NodeFailure;
  /** The failure in words (the SQL error, or what was wrong with the rows). */
  error?: string;
  /** The SQL the model wrote (placeholders included). */
  sql: string;
  /** As executed, placeholders resolved. */
  resolvedSql: string;
  /** Self-contained: `resolvedSql` with relation inputs as common table expressions (see NodeResultRef). */
  composedSql: string;
  /** Present when the SQL ran (even if its rows were empty): the reference downstream nodes use. */
  result?: NodeResultRef;
  truncated: boolean;
  preview: SqlRow[];
}

/** The stored rows of one node. */
export interface StoredNodeResult {
  columns: string[];
  rows: SqlRow[];
  truncated: boolean;
}

/** The relation name of node k's result in downstream SQL. */
export const relationName = (id: number) => `n${id}`;
