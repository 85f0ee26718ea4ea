import { markMissingServerDatabases } from '../../activities/benchmark/datasets/missing-server-databases';
import type { BenchmarkQuestion, LoadedDataset } from '../../core/datasets/benchmark-question';

const question = (index: number, dbId: string, database: string): BenchmarkQuestion => ({
  index,
  id: String(index),
  question: `question ${index}`,
  goldSql: 'SELECT 1',
  dbId,
  database,
  evaluationDatabases: [database],
});

/** An error as checkOnConnect throws it: its message, the driver's error as the cause. */
const connectFailure = (message: string, code: string) =>
  new Error(`cannot connect to the server: ${message}`, { cause: Object.assign(new Error(message), { code }) });

describe('databases a server does not have', () => {
  it('marks the questions over them not executable and lists them; a server that is down or a refused login marks nothing', async () => {
    const there = 'postgres://reader@db:5432/there';
    const absent = 'postgres://reader@db:5432/absent';
    const absentMysql = 'mysql://reader@db:3306/absent';
    const down = 'postgres://reader@other:5432/down';
    const loaded: LoadedDataset = {
      name: 'set',
      evaluator: 'spider',
      questions: [
        question(0, 'there', there),
        question(1, 'absent', absent),
        question(2, 'absent', absent),
        question(3, 'absent_my', absentMysql),
        question(4, 'down', down),
      ],
      schemas: {},
      missingDatabases: [],
      notes: {},
    };
    const opened: string[] = [];
    await markMissingServerDatabases(loaded, async (reference) => {
      opened.push(reference);
      if (reference === absent) throw connectFailure('database "absent" does not exist', '3D000');
      if (reference === absentMysql) throw connectFailure("Unknown database 'absent'", 'ER_BAD_DB_ERROR');
      if (reference === down) throw connectFailure('connect ECONNREFUSED', 'ECONNREFUSED');
      return {};
    });
    expect(opened).toEqual([there, absent, absentMysql, down]); // each database once
    expect(loaded.questions.map((q) => [q.index, q.notExecutable ?? null, q.evaluationDatabases])).toEqual([
      [0, null, [there]],
      [1, expect.stringMatching(/does not exist/), []],
      [2, expect.stringMatching(/does not exist/), []],
      [3, expect.stringMatching(/Unknown database/), []],
      [4, null, [down]],
    ]);
    expect(loaded.missingDatabases).toEqual([
      { dbId: 'absent', path: absent, questions: 2 },
      { dbId: 'absent_my', path: absentMysql, questions: 1 },
    ]);
  });
});
