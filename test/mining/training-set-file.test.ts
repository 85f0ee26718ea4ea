import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTrainingSet } from '../../activities/training-sets/training-questions';
import { BAD_EXAMPLES, GOOD_EXAMPLES, writeUserExamples } from '../support/user-examples';

/** `mine-rules --dataset <file.jsonl>` reads the same file as `build-knowledge few-shot --sources <file.jsonl>`. */
describe('loadTrainingSet on a file of examples', () => {
  it('takes every line with its database resolved next to the file, labelled as the few-shot index labels it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-training-file-'));
    const shop = writeUserExamples(dir);
    const set = loadTrainingSet(path.relative(process.cwd(), shop.file), '/nowhere');
    expect(set.skippedMissingDatabase).toBe(0);
    expect(set.questions.map((q) => q.question)).toEqual([...GOOD_EXAMPLES, ...BAD_EXAMPLES].map((e) => e.question));
    expect(new Set(set.questions.map((q) => q.database))).toEqual(new Set([shop.database]));
    expect(set.questions.map((q) => q.dbId)).toEqual([...GOOD_EXAMPLES, ...BAD_EXAMPLES].map((e) => ('db_id' in e ? e.db_id : 'shop')));
    expect(set.questions.every((q) => q.evaluationDatabases[0] === shop.database && q.difficulty)).toBe(true);
  });
});
