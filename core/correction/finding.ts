/**
 * One problem a diagnostic check found in a candidate SQL (DexterSQL §3.4.1 Step 1). `error`s
 * mean the SQL does not answer at all (it does not parse or run); `warning`s mean it runs but
 * its result looks wrong for the question.
 */
export interface Finding {
  check: string;
  severity: 'error' | 'warning';
  message: string;
  /**
   * A rewrite plain code is sure of (a misspelt column whose one right spelling the schema has):
   * tried before any model is asked, kept only if the SQL is better for it.
   */
  fix?: { sql: string; description: string };
}

export function formatFinding(f: Finding): string {
  return `${f.severity} [${f.check}]: ${f.message}`;
}
