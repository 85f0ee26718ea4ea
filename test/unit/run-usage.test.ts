import { addCall, emptyUsage, mergeUsage } from '../../core/usage';

describe('run usage (core/usage)', () => {
  it("counts model time: a generated call's latency, a cache hit's time when it was generated, and the hits stored without one", () => {
    let usage = addCall(emptyUsage(), { role: 'generator', model: 'm', promptTokens: 100, completionTokens: 10, latencyMs: 4_000, cacheHit: false });
    usage = addCall(usage, { role: 'reviser', model: 'm', promptTokens: 0, completionTokens: 0, latencyMs: 3, cacheHit: true, cachedLatencyMs: 6_000 });
    usage = addCall(usage, { role: 'reviser', model: 'm', promptTokens: 0, completionTokens: 0, latencyMs: 2, cacheHit: true });
    expect(usage).toMatchObject({ llmCalls: 3, cacheHits: 2, modelMs: 10_000, untimedHits: 1 });
    // A child workflow's usage joins its parent's, and a run recorded before model time was counted adds nothing.
    const { modelMs: _dropped, untimedHits: _none, ...older } = usage;
    expect(mergeUsage(usage, usage)).toMatchObject({ modelMs: 20_000, untimedHits: 2 });
    expect(mergeUsage(usage, older)).toMatchObject({ modelMs: 10_000, untimedHits: 1 });
  });

  it('counts per role the prompt tokens a local model reused, the tokens it took from drafts and their batched share, only where there were some', () => {
    let usage = addCall(emptyUsage(), {
      role: 'generator',
      model: 'm',
      promptTokens: 900,
      completionTokens: 50,
      reusedPromptTokens: 600,
      draftedTokens: 20,
      batchedTokens: 5,
      latencyMs: 1,
      cacheHit: false,
    });
    usage = addCall(usage, { role: 'generator', model: 'm', promptTokens: 800, completionTokens: 30, reusedPromptTokens: 700, latencyMs: 1, cacheHit: false });
    usage = addCall(usage, { role: 'reviser', model: 'm', promptTokens: 400, completionTokens: 10, latencyMs: 1, cacheHit: false });
    expect(usage.byRole).toEqual({
      generator: { calls: 2, promptTokens: 1700, completionTokens: 80, reusedPromptTokens: 1300, draftedTokens: 20, batchedTokens: 5 },
      reviser: { calls: 1, promptTokens: 400, completionTokens: 10 },
    });
    expect(mergeUsage(usage, usage).byRole.generator).toEqual({
      calls: 4,
      promptTokens: 3400,
      completionTokens: 160,
      reusedPromptTokens: 2600,
      draftedTokens: 40,
      batchedTokens: 10,
    });
    expect(mergeUsage(usage, usage)).toMatchObject({ draftedTokens: 40, batchedTokens: 10 });
  });
});
