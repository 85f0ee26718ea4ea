import { renderDocumentationContext, renderKeysContext } from '../../core/exploration/exploration-text';
import { TRIAGE_LEVELS, type CandidatePair, type TriageLevel, type TriageOutcome, type TriageVerdict } from '../../core/exploration/pair-types';
import { majorityAmbiguous } from '../../core/exploration/triage-vote';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { renderColumnProfile } from '../../core/profiling/profile-text';
import { renderSchemaDdl } from '../../core/schema-text';
import type { LlmCallUsage } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { LlmService } from '../llm/llm-service';
import { loadPreparedProfiles, profileOf } from '../prepared/load-prepared';
import { askModel } from '../prompts/ask-model';
import type { PromptName } from '../../core/prompts/prompt-catalog';

export interface ExplorationLlmDeps {
  llm: LlmService;
  store: ArtifactStore;
}

export interface TriageAmbiguousPairInput {
  databaseId: string;
  versions: PreparationVersions;
  dialect: string;
  pair: CandidatePair;
  maxJoinHops: number;
}

const TEMPLATE = {
  profiles: 'triage-pair-profiles',
  keys: 'triage-pair-keys',
  schema: 'triage-pair-schema',
} as const satisfies Record<TriageLevel, PromptName>;

/**
 * DexterSQL §3.1.3 Step 2 for one candidate pair: the same ambiguity question under three
 * prompts with increasing information — (i) the two profiles with their values, (ii) plus
 * their tables' keys and join path, (iii) plus the whole schema and documentation — each a
 * binary verdict; the pair is confirmed by majority. The calls run one after another so the
 * `llm` queue's concurrency bounds model load exactly; a retried activity pays nothing for the
 * calls that already answered (the LLM cache has them).
 */
export async function triageAmbiguousPair(deps: ExplorationLlmDeps, input: TriageAmbiguousPairInput): Promise<TriageOutcome> {
  const { stored, columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const { a, b } = input.pair;
  const vars = {
    dialect: input.dialect,
    columnA: renderColumnProfile(profileOf(columns, a)),
    columnB: renderColumnProfile(profileOf(columns, b)),
    keys: renderKeysContext(stored.schema, a, b, input.maxJoinHops),
    schema: renderSchemaDdl(stored.schema),
    documentation: renderDocumentationContext(stored.documentation),
  };
  const verdicts: TriageVerdict[] = [];
  const usage: LlmCallUsage[] = [];
  for (const level of TRIAGE_LEVELS) {
    const answer = await askModel(deps.llm, TEMPLATE[level], vars);
    verdicts.push({ level, ambiguous: answer.value.ambiguous, reason: answer.value.reason });
    usage.push(answer.usage);
  }
  return { pairId: input.pair.id, verdicts, ambiguous: majorityAmbiguous(verdicts), usage };
}
