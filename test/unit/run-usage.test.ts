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
});
