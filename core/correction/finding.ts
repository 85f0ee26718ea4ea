/**
 * One problem a diagnostic check found in a candidate SQL (DexterSQL §3.4.1 Step 1). `error`s
 * mean the SQL does not answer at all (it does not parse or run); `warning`s mean it runs but
 * its result looks wrong for the question.
 */
export interface Finding {
  check: string;
  severity: 'error' | 'warning';
  message: string;
}

export function formatFinding(f: Finding): string {
  return `${f.severity} [${f.check}]: ${f.message}`;
}
