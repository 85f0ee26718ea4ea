import type { TriageVerdict } from './pair-types';

/**
 * §3.1.3 Step 2: "Each prompt returns a binary verdict, and DexterSQL takes a majority vote."
 * Ambiguous when more than half of the verdicts say so (2 of 3).
 */
export function majorityAmbiguous(verdicts: TriageVerdict[]): boolean {
  if (verdicts.length === 0) throw new Error('a triage vote needs at least one verdict');
  return verdicts.filter((v) => v.ambiguous).length * 2 > verdicts.length;
}
