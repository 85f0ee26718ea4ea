import { agreementQuorum, quorumAgrees } from '../../core/selection/early-agreement';
import { clusterCandidates } from '../../core/selection/cluster-candidates';

describe('stopping generation when the first paths agree', () => {
  it('asks for more than half of the paths and at least the confidence threshold of them', () => {
    expect(agreementQuorum(3, 0.6)).toBe(2);
    expect(agreementQuorum(4, 0.6)).toBe(3);
    expect(agreementQuorum(5, 0.6)).toBe(3); // 0.6 × 5 is 3.0000000000000004 in floating point
    expect(agreementQuorum(3, 0.7)).toBeNull(); // two of three is below the threshold: all three must write
    expect(agreementQuorum(2, 0.6)).toBeNull();
    expect(agreementQuorum(1, 0.6)).toBeNull();
  });

  it('agrees only when every quorum candidate ran, to one result', () => {
    expect(quorumAgrees(['r', 'r'], 2)).toBe(true);
    expect(quorumAgrees(['r', 's'], 2)).toBe(false);
    expect(quorumAgrees([null, null], 2)).toBe(false);
    expect(quorumAgrees(['r'], 2)).toBe(false); // a path wrote nothing
  });

  it('is safe: whatever the other paths write, the agreeing cluster wins with the first path, at or above the threshold', () => {
    for (const [paths, threshold] of [
      [3, 0.6],
      [4, 0.6],
      [5, 0.5],
      [5, 0.8],
    ] as const) {
      const quorum = agreementQuorum(paths, threshold);
      if (quorum === null) continue;
      const others = paths - quorum;
      // Every way the other paths can fail, agree among themselves, or join the quorum's result.
      for (let code = 0; code < 3 ** others; code++) {
        const rest = Array.from({ length: others }, (_, i) => ['fail', 'x', 'same'][Math.floor(code / 3 ** i) % 3]);
        const keys = [...Array<string>(quorum).fill('q'), ...rest.map((r) => (r === 'fail' ? null : r === 'x' ? 'x' : 'q'))];
        const [top] = clusterCandidates(keys.map((resultKey, index) => ({ index, resultKey })));
        expect({ paths, threshold, rest, first: top.members[0], wins: top.resultKey, confident: top.confidence >= threshold }).toEqual({
          paths,
          threshold,
          rest,
          first: 0,
          wins: 'q',
          confident: true,
        });
      }
    }
  });
});
