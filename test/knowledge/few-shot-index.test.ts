import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { loadFewShotManifest, retrieveFewShotExamples, storeFewShotExamples } from '../../activities/knowledge/few-shot-index';
import { summarizeKnowledge } from '../../activities/knowledge/knowledge-store';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import type { FewShotExample } from '../../core/knowledge/knowledge-types';
import { sqlSkeleton } from '../../core/knowledge/sql-skeleton';

/** Few-shot retrieval on the real embedded vector store: known pairs of structurally alike questions. */
const EXAMPLES: FewShotExample[] = [
  { question: 'How many singers are from France?', sql: "SELECT count(*) FROM singer WHERE country = 'France'", database: 'concert_singer' },
  { question: 'List the names of students ordered by their age.', sql: 'SELECT name FROM student ORDER BY age', database: 'college' },
  { question: 'What is the average price of all products?', sql: 'SELECT avg(price) FROM product', database: 'shop' },
  { question: 'Which city has the most airports?', sql: 'SELECT city FROM airport GROUP BY city ORDER BY count(*) DESC LIMIT 1', database: 'flights' },
  { question: 'Find the names of employees who earn more than 5000.', sql: 'SELECT name FROM employee WHERE salary > 5000', database: 'company' },
  {
    question: 'Show the titles of films released after 1990 and before 2000.',
    sql: 'SELECT title FROM film WHERE year > 1990 AND year < 2000',
    database: 'movies',
  },
];

/** A new question, and the example that has its structure (never its topic). */
const PAIRS: [string, string][] = [
  ['How many pets are from Germany?', 'How many singers are from France?'],
  ['List the titles of books ordered by their year.', 'List the names of students ordered by their age.'],
  ['What is the average weight of all dogs?', 'What is the average price of all products?'],
  ['Which country has the most rivers?', 'Which city has the most airports?'],
  ['Find the names of players who score more than 20.', 'Find the names of employees who earn more than 5000.'],
  ['Show the names of ships built after 1950 and before 1970.', 'Show the titles of films released after 1990 and before 2000.'],
];

describe('the few-shot index', () => {
  let store: ArtifactStore;
  let vectors: EmbeddedVectorStore;
  beforeEach(() => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-few-shot-'));
    store = openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
    vectors = new EmbeddedVectorStore(path.join(dir, 'vectors'));
  });
  afterEach(async () => {
    await vectors.close();
    await store.close();
  });

  it('returns nothing when no index was built', async () => {
    expect(await retrieveFewShotExamples({ store, vectors }, 'How many pets are there?', 3)).toEqual([]);
    expect((await summarizeKnowledge(store)).fewShotExamples).toBe(0);
  });

  it('finds the structurally similar example of each known pair first, with its SQL skeleton', async () => {
    await storeFewShotExamples({ store, vectors }, EXAMPLES);
    expect((await summarizeKnowledge(store)).fewShotExamples).toBe(EXAMPLES.length);
    for (const [question, expected] of PAIRS) {
      const found = await retrieveFewShotExamples({ store, vectors }, question, 3);
      expect(found).toHaveLength(3);
      expect([question, found[0].question]).toEqual([question, expected]);
      expect(found[0].skeleton).toBe(sqlSkeleton(EXAMPLES.find((e) => e.question === expected)!.sql));
    }
  });

  it('never returns the question being answered, nor a copy of its text under the same or another database', async () => {
    const own = EXAMPLES[0];
    await storeFewShotExamples({ store, vectors }, [
      ...EXAMPLES,
      { ...own, sql: "SELECT count(*) FROM singer WHERE Country = 'France'" }, // its database's other copy
      { ...own, question: '  how many singers  are from France? ', database: 'singer' }, // the same text elsewhere
    ]);
    const found = await retrieveFewShotExamples({ store, vectors }, own.question, 3);
    expect(found).toHaveLength(3);
    expect(found.map((e) => e.question.trim().toLowerCase())).not.toContain(own.question.toLowerCase());
    expect(found.map((e) => e.sql)).not.toContain(own.sql);
  });

  it("withholds every example of the question's own database when asked to (a training question's paraphrases)", async () => {
    const paraphrase = { question: 'Count the singers whose country is France.', sql: EXAMPLES[0].sql, database: 'concert_singer' };
    await storeFewShotExamples({ store, vectors }, [...EXAMPLES, paraphrase]);
    const question = 'How many singers come from France?';
    const open = await retrieveFewShotExamples({ store, vectors }, question, 3);
    expect(open.map((e) => e.database)).toContain('concert_singer');
    const withheld = await retrieveFewShotExamples({ store, vectors }, question, 3, 'Concert_Singer');
    expect(withheld).toHaveLength(3);
    expect(withheld.map((e) => e.database)).not.toContain('concert_singer');
  });

  it('a rebuilt index replaces the old one for readers, and its collection is removed', async () => {
    const first = await storeFewShotExamples({ store, vectors }, EXAMPLES.slice(0, 3));
    const second = await storeFewShotExamples({ store, vectors }, EXAMPLES);
    expect((await loadFewShotManifest(store))!.collection).toBe(second.collection);
    expect(await vectors.listCollections()).toEqual([second.collection]);
    expect(second.collection).not.toBe(first.collection);
  });

  it('SQL skeletons mask values and keep structure', () => {
    expect(sqlSkeleton("SELECT name FROM t WHERE a = 'x''y' AND b > 3.5 AND c = -2 ORDER BY  d LIMIT 1")).toBe(
      "SELECT name FROM t WHERE a = 'VALUE' AND b > NUMBER AND c = NUMBER ORDER BY d LIMIT NUMBER",
    );
    expect(sqlSkeleton('SELECT T1.x FROM t1 AS T1 WHERE col2 = "Village"')).toBe("SELECT T1.x FROM t1 AS T1 WHERE col2 = 'VALUE'");
  });
});
