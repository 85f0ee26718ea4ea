import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBirdDescriptions } from '../../activities/benchmark/datasets/bird-descriptions';
import { loadDataset } from '../../activities/benchmark/datasets/load-dataset';
import { parseCsv } from '../../core/datasets/csv';
import { DATASETS, spiderDatabasePath, spiderDev } from '../../devkit/datasets';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'decodex-datasets-'));

describe('benchmark dataset loaders', () => {
  it('Spider dev: 1034 questions, gold from dev_gold.sql, hardness, wta_1 reported missing', () => {
    const spider = loadDataset({ dataset: 'spider-dev', root: DATASETS });
    expect(spider.evaluator).toBe('spider');
    expect(spider.questions).toHaveLength(1034);
    expect(spider.questions.map((q) => q.goldSql)).toEqual(spiderDev().map((q) => q.query.trim()));
    expect(spider.missingDatabases).toEqual([{ dbId: 'wta_1', path: spiderDatabasePath('wta_1'), questions: 62 }]);
    const notExecutable = spider.questions.filter((q) => q.notExecutable);
    expect(notExecutable).toHaveLength(62);
    expect(notExecutable[0].notExecutable).toMatch(/wta_1\.sqlite is missing/);
    const first = spider.questions[0];
    expect(first).toMatchObject({ index: 0, dbId: 'concert_singer', difficulty: 'easy', evaluationDatabases: [spiderDatabasePath('concert_singer')] });
    expect(Object.keys(spider.schemas)).toHaveLength(20);
    expect(spider.schemas.concert_singer.tables.map((t) => t.name)).toEqual(['stadium', 'singer', 'concert', 'singer_in_concert']);
  });

  it('Spider train: the 7,000 questions of train_spider.json, to tune on; a sample spreads over its databases', () => {
    const file = JSON.parse(readFileSync(path.join(DATASETS, 'spider-syn', 'train_spider.json'), 'utf8')) as {
      db_id: string;
      SpiderQuestion: string;
      query: string;
    }[];
    const train = loadDataset({ dataset: 'spider-train', root: DATASETS });
    expect(train.evaluator).toBe('spider');
    expect(train.questions).toHaveLength(7000);
    expect(train.questions.map((q) => [q.dbId, q.question, q.goldSql])).toEqual(file.map((q) => [q.db_id, q.SpiderQuestion, q.query]));
    expect(train.questions[0]).toMatchObject({
      id: 'train-0',
      dbId: 'department_management',
      evaluationDatabases: [spiderDatabasePath('department_management')],
    });
    expect(train.questions[0].difficulty).toBeUndefined();
    const sample = loadDataset({ dataset: 'spider-train', root: DATASETS, sample: { size: 50, seed: 1 } });
    expect(sample.questions).toHaveLength(50);
    // Stratified by database: 50 questions from 140 databases come from 50 different ones.
    expect(new Set(sample.questions.map((q) => q.dbId)).size).toBe(50);
    // The datasets leave out two large training databases: their questions are reported, not asked.
    expect(train.missingDatabases.map((m) => m.dbId).sort()).toEqual(['baseball_1', 'soccer_1']);
    expect(train.questions.filter((q) => q.notExecutable)).toHaveLength(96);
    expect(sample.questions.filter((q) => q.notExecutable).map((q) => q.dbId)).toEqual(['baseball_1']);
  });

  it("reads Spider-Syn train: Spider train's gold SQL and databases, each question worded without the schema's names", () => {
    const file = JSON.parse(readFileSync(path.join(DATASETS, 'spider-syn', 'train_spider.json'), 'utf8')) as { SpiderSynQuestion: string }[];
    const syn = loadDataset({ dataset: 'spider-syn-train', root: DATASETS, sample: { size: 30, seed: 1 } });
    const train = loadDataset({ dataset: 'spider-train', root: DATASETS, sample: { size: 30, seed: 1 } });
    expect(syn.evaluator).toBe('spider');
    // The same sample as spider-train's (same seed, same ids), reworded.
    expect(syn.questions.map((q) => [q.id, q.dbId, q.goldSql])).toEqual(train.questions.map((q) => [q.id, q.dbId, q.goldSql]));
    for (const q of syn.questions) expect(q.question).toBe(file[Number(q.id.replace('train-', ''))].SpiderSynQuestion);
    expect(syn.questions.filter((q, i) => q.question !== train.questions[i].question).length).toBeGreaterThan(20);
    expect(syn.questions[0].evaluationDatabases).toEqual(train.questions[0].evaluationDatabases);
  });

  it('keeps the first --limit questions and reports only their missing databases', () => {
    const five = loadDataset({ dataset: 'spider-dev', root: DATASETS, limit: 5 });
    expect(five.questions.map((q) => q.index)).toEqual([0, 1, 2, 3, 4]);
    expect(five.missingDatabases).toEqual([]);
    expect(Object.keys(five.schemas)).toEqual(['concert_singer']);
  });

  it('evaluates Spider on every .sqlite variant in the database folder (test-suite layout)', () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'concert_singer'));
    copyFileSync(spiderDatabasePath('concert_singer'), path.join(dir, 'concert_singer', 'concert_singer.sqlite'));
    copyFileSync(spiderDatabasePath('concert_singer'), path.join(dir, 'concert_singer', 'concert_singer_1.sqlite'));
    const spider = loadDataset({ dataset: 'spider-dev', root: DATASETS, limit: 1, databaseDir: dir });
    expect(spider.questions[0].evaluationDatabases.map((f) => path.basename(f))).toEqual(['concert_singer.sqlite', 'concert_singer_1.sqlite']);
  });

  it('names each database on a server by its db_id (capitals kept), evaluated there alone', () => {
    const spider = loadDataset({ dataset: 'spider-dev', root: DATASETS, databaseDir: 'postgresql://reader@db:5432/spider_{db_id}' });
    const templated = spider.questions.find((q) => q.dbId === 'cre_Doc_Template_Mgt')!;
    expect(templated.database).toBe('postgres://reader@db:5432/spider_cre_Doc_Template_Mgt');
    expect(spider.questions[0]).toMatchObject({
      database: 'postgres://reader@db:5432/spider_concert_singer',
      evaluationDatabases: ['postgres://reader@db:5432/spider_concert_singer'],
    });
    // Whether a server has a database is the worker's to find out (missing-server-databases.ts), not the loader's.
    expect(spider.missingDatabases).toEqual([]);
  });

  it('BIRD dev: 1534 questions with evidence and difficulty; no database present, all reported', () => {
    const bird = loadDataset({ dataset: 'bird-dev', root: DATASETS });
    expect(bird.evaluator).toBe('bird');
    expect(bird.questions).toHaveLength(1534);
    expect(bird.questions[0]).toMatchObject({ id: '0', dbId: 'california_schools', difficulty: 'simple' });
    expect(bird.questions[0].evidence).toMatch(/Eligible free rate/);
    expect(bird.missingDatabases).toHaveLength(11);
    expect(bird.missingDatabases.reduce((n, m) => n + m.questions, 0)).toBe(1534);
    expect(bird.notes.description_tables).toBe(75);
    expect(Number(bird.notes.described_columns)).toBeGreaterThan(500);
    expect(loadDataset({ dataset: 'bird-mini-dev', root: DATASETS }).questions).toHaveLength(500);
  });

  it('reads BIRD column descriptions, quoted multi-line fields included', () => {
    const descriptions = loadBirdDescriptions(path.join(DATASETS, 'bird', 'dev_databases', 'california_schools'));
    expect(Object.keys(descriptions).sort()).toEqual(['frpm', 'satscores', 'schools']);
    expect(descriptions.frpm[0]).toMatchObject({ column: 'CDSCode', description: 'CDSCode', dataFormat: 'integer' });
    expect(parseCsv('a,b\n"x, ""y""\nz",2\r\n\n')).toEqual([
      ['a', 'b'],
      ['x, "y"\nz', '2'],
    ]);
  });

  it('JSONL: paths relative to the file, missing databases marked, bad lines named', () => {
    const dir = tmp();
    copyFileSync(spiderDatabasePath('pets_1'), path.join(dir, 'pets.sqlite'));
    const file = path.join(dir, 'questions.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'a', question: 'How many pets?', sql: 'SELECT count(*) FROM pets', database: 'pets.sqlite', difficulty: 'simple' }),
        '',
        JSON.stringify({ question: 'Gone?', sql: 'SELECT 1', database: 'gone.sqlite', evidence: 'none' }),
      ].join('\n'),
    );
    const set = loadDataset({ dataset: file, root: DATASETS });
    expect(set.evaluator).toBe('bird');
    expect(set.questions.map((q) => [q.id, q.dbId, q.database, q.notExecutable ?? null])).toEqual([
      ['a', 'pets', path.join(dir, 'pets.sqlite'), null],
      ['1', 'gone', path.join(dir, 'gone.sqlite'), `database file ${path.join(dir, 'gone.sqlite')} is missing`],
    ]);
    expect(loadDataset({ dataset: file, root: DATASETS, evaluator: 'spider' }).evaluator).toBe('spider');

    // A connection name is the worker's to resolve; a password is refused, since the URL would enter every question's history.
    writeFileSync(file, `${JSON.stringify({ question: 'q', sql: 'SELECT 1', database: 'shop' })}\n`);
    expect(loadDataset({ dataset: file, root: DATASETS }).questions[0]).toMatchObject({ database: 'shop', evaluationDatabases: ['shop'] });
    writeFileSync(file, `${JSON.stringify({ question: 'q', sql: 'SELECT 1', database: 'mysql://u:p@ss@h/shop' })}\n`);
    expect(() => loadDataset({ dataset: file, root: DATASETS })).toThrow(/questions\.jsonl:1: "database" holds a password; use mysql:\/\/u@h:3306\/shop/);
    expect(() => loadDataset({ dataset: file, root: DATASETS })).not.toThrow(/p@ss/);

    writeFileSync(file, `${JSON.stringify({ question: 'q', database: 'pets.sqlite' })}\n`);
    expect(() => loadDataset({ dataset: file, root: DATASETS })).toThrow(/questions\.jsonl:1: "sql" must be a non-empty string/);
    expect(() => loadDataset({ dataset: 'spider-test', root: DATASETS })).toThrow(/unknown dataset/);
  });
});
