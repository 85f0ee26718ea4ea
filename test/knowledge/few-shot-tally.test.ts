import { addFewShotPage, emptyFewShotTally, fileWithoutExamples, rejectedExamples } from '../../core/knowledge/few-shot-tally';
import { REPORTED_REJECTIONS } from '../../core/knowledge/few-shot-job-types';

const rejection = (source: string, line: number) => ({ source, line, question: `q${line}`, reason: `sql_error: bad ${line}` });

/** What the few-shot job adds up over its pages about the examples of users' files. */
describe('the few-shot tally', () => {
  it('adds each file’s counts over pages and keeps the first rejections only', () => {
    let tally = emptyFewShotTally();
    tally = addFewShotPage(tally, { files: { '/a.jsonl': { indexed: 2, rejected: 4 } }, rejections: [1, 2, 3, 4].map((l) => rejection('/a.jsonl', l)) });
    tally = addFewShotPage(tally, {
      files: { '/a.jsonl': { indexed: 1, rejected: 0 }, '/b.jsonl': { indexed: 0, rejected: 3 } },
      rejections: [1, 2, 3].map((l) => rejection('/b.jsonl', l)),
    });
    expect(tally.files).toEqual({ '/a.jsonl': { indexed: 3, rejected: 4 }, '/b.jsonl': { indexed: 0, rejected: 3 } });
    expect(rejectedExamples(tally)).toBe(7);
    expect(tally.rejections).toHaveLength(REPORTED_REJECTIONS);
    expect(tally.rejections[4]).toMatchObject({ source: '/b.jsonl', line: 1 });
  });

  it('names a file none of whose examples ran, with its first reported rejection', () => {
    const fine = addFewShotPage(emptyFewShotTally(), { files: { '/a.jsonl': { indexed: 1, rejected: 1 } }, rejections: [rejection('/a.jsonl', 2)] });
    expect(fileWithoutExamples(fine)).toBeNull();
    const dead = addFewShotPage(fine, { files: { '/b.jsonl': { indexed: 0, rejected: 2 } }, rejections: [rejection('/b.jsonl', 5)] });
    expect(fileWithoutExamples(dead)).toBe(
      'none of the 2 examples of /b.jsonl could be run on its database, so none is indexed (first, line 5: sql_error: bad 5)',
    );
  });
});
