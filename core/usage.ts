/** What one LLM call cost; every step that calls a model returns one of these with its result. */
export interface LlmCallUsage {
  role: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** Of promptTokens, those a local model did not evaluate again (its kept prefix); absent: none. */
  reusedPromptTokens?: number;
  /** Of completionTokens, those a local model accepted from a verified draft (no forward pass of their own). */
  draftedTokens?: number;
  /** Of completionTokens, the share of forward passes other generations of the same local model decoded in too (batched generation). */
  batchedTokens?: number;
  latencyMs: number;
  cacheHit: boolean;
  /** For a cache hit: the prompt tokens the answer took when it was generated (what this call would have sent). */
  cachedPromptTokens?: number;
  /** For a cache hit: how long generating the answer took (absent for answers cached before it was kept). */
  cachedLatencyMs?: number;
}

/** Usage of a whole run, summed over its calls and broken down by role. */
export interface RunUsage {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the model did not evaluate again (absent in runs recorded before it was counted). */
  reusedPromptTokens?: number;
  /** Generated tokens taken from verified drafts. */
  draftedTokens?: number;
  /** Generated tokens' share of passes batched with other generations: completionTokens minus drafted and batched is the decode passes spent. */
  batchedTokens?: number;
  cacheHits: number;
  /**
   * Prompt tokens the cache hits took when they were generated: with promptTokens, what the run's
   * configuration sends, however much of it a cache answered (absent in runs recorded before it was counted).
   */
  cachedPromptTokens?: number;
  /**
   * Model time: the latency of each call the model answered, and for each cache hit the time its
   * answer took when it was generated. What the run costs without the cache, so a replayed run
   * still says it (absent in runs recorded before it was counted).
   */
  modelMs?: number;
  /** Cache hits whose answer was stored without its generation time (modelMs leaves them out). */
  untimedHits?: number;
  byRole: Record<string, RoleUsage>;
}

/** One role's share of a run (the reused, drafted and batched tokens only where there were some, and absent in runs recorded before they were counted per role). */
export interface RoleUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  reusedPromptTokens?: number;
  draftedTokens?: number;
  batchedTokens?: number;
}

/** Two shares of one role added up. */
export function addRoleUsage(a: RoleUsage | undefined, b: RoleUsage): RoleUsage {
  const reused = (a?.reusedPromptTokens ?? 0) + (b.reusedPromptTokens ?? 0);
  const drafted = (a?.draftedTokens ?? 0) + (b.draftedTokens ?? 0);
  const batched = (a?.batchedTokens ?? 0) + (b.batchedTokens ?? 0);
  return {
    calls: (a?.calls ?? 0) + b.calls,
    promptTokens: (a?.promptTokens ?? 0) + b.promptTokens,
    completionTokens: (a?.completionTokens ?? 0) + b.completionTokens,
    ...(reused ? { reusedPromptTokens: reused } : {}),
    ...(drafted ? { draftedTokens: drafted } : {}),
    ...(batched ? { batchedTokens: batched } : {}),
  };
}

export function emptyUsage(): RunUsage {
  return {
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    reusedPromptTokens: 0,
    draftedTokens: 0,
    batchedTokens: 0,
    cacheHits: 0,
    cachedPromptTokens: 0,
    modelMs: 0,
    untimedHits: 0,
    byRole: {},
  };
}

export function addCall(usage: RunUsage, call: LlmCallUsage): RunUsage {
  const thisCall: RoleUsage = {
    calls: 1,
    promptTokens: call.promptTokens,
    completionTokens: call.completionTokens,
    reusedPromptTokens: call.reusedPromptTokens,
    draftedTokens: call.draftedTokens,
    batchedTokens: call.batchedTokens,
  };
  return {
    llmCalls: usage.llmCalls + 1,
    promptTokens: usage.promptTokens + call.promptTokens,
    completionTokens: usage.completionTokens + call.completionTokens,
    reusedPromptTokens: (usage.reusedPromptTokens ?? 0) + (call.reusedPromptTokens ?? 0),
    draftedTokens: (usage.draftedTokens ?? 0) + (call.draftedTokens ?? 0),
    batchedTokens: (usage.batchedTokens ?? 0) + (call.batchedTokens ?? 0),
    cacheHits: usage.cacheHits + (call.cacheHit ? 1 : 0),
    cachedPromptTokens: (usage.cachedPromptTokens ?? 0) + (call.cachedPromptTokens ?? 0),
    modelMs: (usage.modelMs ?? 0) + (call.cacheHit ? (call.cachedLatencyMs ?? 0) : call.latencyMs),
    untimedHits: (usage.untimedHits ?? 0) + (call.cacheHit && call.cachedLatencyMs === undefined ? 1 : 0),
    byRole: { ...usage.byRole, [call.role]: addRoleUsage(usage.byRole[call.role], thisCall) },
  };
}

export function totalTokens(usage: RunUsage): number {
  return usage.promptTokens + usage.completionTokens;
}

/** The usage of two runs together (a child workflow's usage joins its parent's). */
export function mergeUsage(a: RunUsage, b: RunUsage): RunUsage {
  const byRole = { ...a.byRole };
  for (const [role, r] of Object.entries(b.byRole)) byRole[role] = addRoleUsage(byRole[role], r);
  return {
    llmCalls: a.llmCalls + b.llmCalls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    reusedPromptTokens: (a.reusedPromptTokens ?? 0) + (b.reusedPromptTokens ?? 0),
    draftedTokens: (a.draftedTokens ?? 0) + (b.draftedTokens ?? 0),
    batchedTokens: (a.batchedTokens ?? 0) + (b.batchedTokens ?? 0),
    cacheHits: a.cacheHits + b.cacheHits,
    cachedPromptTokens: (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0),
    modelMs: (a.modelMs ?? 0) + (b.modelMs ?? 0),
    untimedHits: (a.untimedHits ?? 0) + (b.untimedHits ?? 0),
    byRole,
  };
}

export function isRunUsage(value: unknown): value is RunUsage {
  return typeof value === 'object' && value !== null && 'llmCalls' in value && 'byRole' in value;
}
