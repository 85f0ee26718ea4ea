import { clusterCandidates } from '../../core/selection/cluster-candidates';
import { agreementQuorum } from '../../core/selection/early-agreement';
import { stillWarned, warnedToSetAside, type VotingCandidate } from '../../core/selection/warned-candidates';

const clean = (resultKey: string): VotingCandidate => ({ resultKey, findings: [] });
const warned = (resultKey: string): VotingCandidate => ({ resultKey, findings: [{ check: 'unused-join' }] });
const failed: VotingCandidate = { resultKey: null, findings: [{ check: 'execution-error' }, { check: 'borrowed-column' }] };

describe('candidates still warned by a question check (selection.setAsideWarned)', () => {
  it('are set aside only while another candidate runs without such a warning, to another result', () => {
    expect(warnedToSetAside([warned('a'), clean('b'), warned('c')])).toEqual([0, 2]);
    expect(warnedToSetAside([warned('a'), warned('a')])).toEqual([]); // nobody clean: everyone votes
    expect(warnedToSetAside([warned('a'), failed])).toEqual([]); // a failed candidate is not clean
    expect(warnedToSetAside([failed, clean('a')])).toEqual([]); // a failed candidate votes for nothing anyway
    // A clean candidate with the same rows refutes the warning: that vote stands.
    expect(warnedToSetAside([warned('a'), clean('a'), warned('b')])).toEqual([2]);
    // Only the question checks count: an empty result is often the right answer.
    expect(warnedToSetAside([{ resultKey: 'a', findings: [{ check: 'empty-result' }] }, clean('b')])).toEqual([]);
    expect(stillWarned([{ check: 'id-for-name' }])).toBe(true);
    expect(stillWarned([{ check: 'count-for-list' }])).toBe(false);
  });

  it('leave early agreement safe: when the first paths agree with one of them clean, whatever the others write, their cluster wins with the first path', () => {
    const kinds = ['fail', 'clean x', 'clean q', 'warned x', 'warned q'] as const;
    const make = (kind: (typeof kinds)[number]) => (kind === 'fail' ? failed : (kind.startsWith('warned') ? warned : clean)(kind.endsWith('x') ? 'x' : 'q'));
    for (const [paths, threshold] of [
      [3, 0.6],
      [4, 0.6],
      [5, 0.5],
    ] as const) {
      const quorum = agreementQuorum(paths, threshold)!;
      const others = paths - quorum;
      // The quorum agrees on q; which of its candidates are warned varies, but not all of them.
      for (let warnedMask = 0; warnedMask < 2 ** quorum - 1; warnedMask++) {
        const first = Array.from({ length: quorum }, (_, i) => ((warnedMask >> i) & 1 ? warned('q') : clean('q')));
        for (let code = 0; code < kinds.length ** others; code++) {
          const rest = Array.from({ length: others }, (_, i) => kinds[Math.floor(code / kinds.length ** i) % kinds.length]);
          const all = [...first, ...rest.map(make)];
          const aside = warnedToSetAside(all);
          const [top] = clusterCandidates(all.map((c, index) => ({ index, resultKey: c.resultKey })).filter((c) => !aside.includes(c.index)));
          expect({ paths, warnedMask, rest, first: top.members[0], wins: top.resultKey, confident: top.confidence >= threshold }).toEqual({
            paths,
            warnedMask,
            rest,
            first: 0,
            wins: 'q',
            confident: true,
          });
        }
      }
    }
  });
});
