import { answerTokensOf } from '../../activities/llm/local/local-provider';
import { SharedPasses } from '../../activities/llm/local/shared-passes';

const counts = (used: number, validated: number, refuted: number) => ({ used, unused: validated - used, validated, refuted });

describe('answerTokensOf: the answer a drafted generation wrote, from the sequence meter and its prediction counts', () => {
  it('without drafting, every token evaluated with its logits is a token of the answer', () => {
    expect(answerTokensOf(120, counts(0, 0, 0), counts(0, 0, 0))).toEqual({ answerTokens: 120, drafted: 0 });
  });

  it('drafted tokens checked and refuted are not the answer; the ones used are, and are the passes saved', () => {
    // 67 passes, each checking drafts (168 checked: 53 used, 1 validated but unused, 114 refuted), wrote 67 + 53 tokens.
    const before = counts(10, 12, 30);
    const after = counts(10 + 53, 12 + 54, 30 + 114);
    expect(answerTokensOf(67 + 168, before, after)).toEqual({ answerTokens: 120, drafted: 53 });
  });
});

describe('SharedPasses: generations of one model decoding together share forward passes', () => {
  it('a generation alone pays a pass per token; k decoding together pay 1/k each, from their first token to their end', () => {
    const passes = new SharedPasses();
    const endA = passes.begin();
    expect(passes.sharedShare(1)).toBe(0);
    const endB = passes.begin();
    expect(passes.sharedShare(1)).toBe(0.5);
    const endC = passes.begin();
    expect(passes.sharedShare(3)).toBeCloseTo(2);
    endC();
    endC(); // ending twice (the normal end, then the cleanup) counts once
    expect(passes.sharedShare(1)).toBe(0.5);
    endB();
    endA();
    expect(passes.sharedShare(1)).toBe(0);
  });
});
