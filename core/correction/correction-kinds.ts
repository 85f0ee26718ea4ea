/**
 * The kinds of change correction makes to a candidate. Each entry of a candidate's `corrections`
 * begins with its kind (`revision 1: ...`, `code fix: ...`, `rules r1, r2`), so a benchmark can say
 * which kind turned candidates right or wrong.
 */
export const CORRECTION_KINDS = ['revision', 'code fix', 'rules'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];

/** The kinds of the corrections a candidate went through, each once, in the order first applied. */
export function correctionKindsOf(corrections: string[]): string[] {
  return [...new Set(corrections.map((entry) => CORRECTION_KINDS.find((kind) => entry.startsWith(kind)) ?? 'other'))];
}
