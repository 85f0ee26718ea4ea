import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchmarkQuestion, EvaluatorName, LoadedDataset } from '../../../core/datasets/benchmark-question';
import { databaseLabel } from '../../../core/database-label';
import { normalizeDatabaseSpec } from '../../database/normalize-database-spec';

/**
 * A user's own question set, one JSON object per line:
 *
 *   {"question": "How many singers?", "sql": "SELECT count(*) FROM singer", "database": "dbs/concert.sqlite",
 *    "evidence": "...", "difficulty": "simple", "id": "q1"}
 *
 * `question`, `sql` (the gold) and `database` (a SQLite path, relative to the JSONL file, a
 * mysql:// URL without password, or a connection name) are required. Blank lines are skipped; any other bad line stops the load with
 * its line number.
 */
export function loadJsonlDataset(file: string, evaluator: EvaluatorName = 'bird'): LoadedDataset {
  const questions = readJsonlQuestions(file).map((q) => q.question);
  return { name: path.basename(file), evaluator, questions, schemas: {}, missingDatabases: [], notes: {} };
}

/** The questions of a JSONL question file (format above), each with its line number (1-based), for messages that point at the line. */
export function readJsonlQuestions(file: string): { line: number; question: BenchmarkQuestion }[] {
  if (!existsSync(file)) throw new Error(`question file ${file} not found`);
  const base = path.dirname(path.resolve(file));
  const questions: { line: number; question: BenchmarkQuestion }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, lineIndex) => {
      if (line.trim() === '') return;
      const where = `${file}:${lineIndex + 1}`;
      let item: Record<string, unknown>;
      try {
        item = JSON.parse(line);
      } catch (err) {
        throw new Error(`${where}: not JSON (${(err as Error).message})`);
      }
      for (const field of ['question', 'sql', 'database']) {
        if (typeof item[field] !== 'string' || !(item[field] as string).trim()) throw new Error(`${where}: "${field}" must be a non-empty string`);
      }
      // The same reference rules as `ask` (a path relative to this file); a password would reach the
      // benchmark's history and every question's, so it must be a connection the worker knows.
      const { reference: database, password } = normalizeDatabaseSpec(item.database as string, base);
      if (password !== undefined) {
        throw new Error(
          `${where}: "database" holds a password; use ${database} or a connection name, with the credentials in the worker's configuration (DECODEX_DATABASE_<NAME>)`,
        );
      }
      const index = questions.length;
      questions.push({
        line: lineIndex + 1,
        question: {
          index,
          id: typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : String(index),
          question: item.question as string,
          ...(typeof item.evidence === 'string' && item.evidence ? { evidence: item.evidence } : {}),
          goldSql: item.sql as string,
          dbId: typeof item.db_id === 'string' ? item.db_id : databaseLabel(database),
          database,
          evaluationDatabases: [],
          ...(typeof item.difficulty === 'string' ? { difficulty: item.difficulty } : {}),
        },
      });
    });
  if (questions.length === 0) throw new Error(`${file} holds no questions`);
  return questions;
}
