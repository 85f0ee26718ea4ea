/** One table of the focused schema: the columns schema linking kept for the question (DexterSQL §3.2). */
export interface FocusedTable {
  table: string;
  columns: string[];
}
