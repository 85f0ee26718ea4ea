import type { CorrectionRule, KnowledgeSummary } from '../../core/knowledge/knowledge-types';
import type { ArtifactStore } from '../artifacts/artifact-store';

/**
 * Where learned knowledge lives in the artifact store. It does not depend on the target
 * database: examples and rules are mined from training databases and are database-agnostic.
 */
export const KNOWLEDGE_KINDS = {
  fewShot: 'few-shot-examples',
  rules: 'correction-rules',
  decompositions: 'decomposition-examples',
} as const;
export const KNOWLEDGE_KEY = 'current';

export async function loadCorrectionRules(store: ArtifactStore): Promise<CorrectionRule[]> {
  return (await store.get<CorrectionRule[]>(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY)) ?? [];
}

/** One published rule set, kept under its version so a run can say which rules it used and an older set can be restored. */
export interface RuleSetVersion {
  version: string;
  source: string;
  publishedAt: string;
  rules: CorrectionRule[];
}

const RULE_VERSION_PREFIX = 'v';

/**
 * Publishes mined rules: a new version (`v0001`, `v0002`, ...) is kept, and `current` (what the
 * online correction reads) becomes these rules. Publishing the same rules again (a retried
 * activity, a rerun job) adds no version.
 */
export async function publishCorrectionRules(
  store: ArtifactStore,
  rules: CorrectionRule[],
  meta: { source: string },
): Promise<{ version: string; unchanged: boolean }> {
  const versions = await store.list(KNOWLEDGE_KINDS.rules, RULE_VERSION_PREFIX);
  const latest = versions.length ? await store.get<RuleSetVersion>(KNOWLEDGE_KINDS.rules, versions[versions.length - 1]) : undefined;
  if (latest && JSON.stringify(latest.rules) === JSON.stringify(rules)) {
    await store.put(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY, rules);
    return { version: latest.version, unchanged: true };
  }
  const version = `${RULE_VERSION_PREFIX}${String(versions.length + 1).padStart(4, '0')}`;
  await store.put(KNOWLEDGE_KINDS.rules, version, { version, source: meta.source, publishedAt: new Date().toISOString(), rules } satisfies RuleSetVersion);
  await store.put(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY, rules);
  return { version, unchanged: false };
}

export async function summarizeKnowledge(store: ArtifactStore): Promise<KnowledgeSummary> {
  // The few-shot index's manifest (activities/knowledge/few-shot-index.ts) counts its examples.
  const fewShot = await store.get<{ count: number }>(KNOWLEDGE_KINDS.fewShot, 'index');
  return { fewShotExamples: fewShot?.count ?? 0, correctionRules: (await loadCorrectionRules(store)).length };
}
