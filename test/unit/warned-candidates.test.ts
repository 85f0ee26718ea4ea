import { clusterCandidates } from '../../core/selection/cluster-candidates';
import { agreementQuorum } from '../../core/selection/early-agreement';
import { stillWarned, warnedToSetAside, type RanCandidate } from '../../core/selection/warned-candidates';

const clean: RanCandidate = { ran: true, findings: [] };
const warned: RanCandidate = { ran: true, findings: [{ check: 'unused-join' }] };
const emptyResult: RanCandidate = { ran: true, findings: [{ check: 'empty-result' }] };
const failed: RanCandidate = { ran: false, findings: [{ check: 'execution-error' }, { check: 'borrowed-column' }] };

describe('candidates still warned by a question check (selection.setAsideWarned)', () => {
  it('are set aside only while another candidate runs without such a warning', () => {
    expect(warnedToSetAside([warned, clean, warned])).toEqual([0, 2]);
    expect(warnedToSetAside([warned, warned])).toEqual([]); // nobody clean: everyone votes
    expect(warnedToSetAside([warned, failed])).toEqual([]); // a failed candidate is not clean
    expect(warnedToSetAside([failed, clean])).toEqual([]); // a failed candidate votes for nothing anyway
    // Only the question checks count: an empty result is often the right answer.
    expect(warnedToSetAside([emptyResult, clean])).toEqual([]);
    expect(stillWarned([{ check: 'id-for-name' }])).toBe(true);
    expect(stillWarned([{ check: 'count-for-list' }])).toBe(false);
  });

  it('leave early agreement safe: when the first paths agree clean, whatever the others write, their cluster wins with the first path', () => {
    for (const [paths, threshold] of [
      [3, 0.6],
      [4, 0.6],
      [5, 0.5],
    ] as const) {
      const quorum = agreementQuorum(paths, threshold)!;
      const others = paths - quorum;
      const kinds = ['fail', 'clean x', 'clean q', 'warned x', 'warned q'] as const;
      for (let code = 0; code < kinds.length ** others; code++) {
        const rest = Array.from({ length: others }, (_, i) => kinds[Math.floor(code / kinds.length ** i) % kinds.length]);
        const all = [...Array<string>(quorum).fill('clean q'), ...rest].map((kind) => ({
          candidate: kind === 'fail' ? failed : kind.startsWith('warned') ? warned : clean,
          resultKey: kind === 'fail' ? null : kind.endsWith('x') ? 'x' : 'q',
        }));
        const aside = warnedToSetAside(all.map((c) => c.candidate));
        const voters = all.map((c, index) => ({ index, resultKey: c.resultKey })).filter((c) => !aside.includes(c.index));
        const [top] = clusterCandidates(voters);
        expect({ paths, rest, first: top.members[0], wins: top.resultKey, confident: top.confidence >= threshold }).toEqual({
          paths,
          rest,
          first: 0,
          wins: 'q',
          confident: true,
        });
      }
    }
  });
});
