/** One benchmark question as every loader (Spider, BIRD, JSONL) produces it. */
export interface BenchmarkQuestion {
  /** Position in the dataset (after --limit), the key of its record and child workflow. */
  index: number;
  /** The dataset's own id (BIRD question_id, Spider's position, a JSONL `id`). */
  id: string;
  question: string;
  evidence?: string;
  goldSql: string;
  /** Database name (Spider/BIRD db_id, or a label for JSONL). */
  dbId: string;
  /** What answerQuestion receives: a SQLite path or a mysql:// URL. */
  database: string;
  /**
   * Where the pair is evaluated. Spider's test-suite mode evaluates on every `.sqlite` file in
   * the database's folder, as exec_eval.py does; otherwise only `database`.
   */
  evaluationDatabases: string[];
  /** BIRD difficulty, Spider hardness, or a JSONL `difficulty`. */
  difficulty?: string;
  /** Why the question cannot be executed (its database file is missing); it is then not asked. */
  notExecutable?: string;
}

/** Table -> columns of one database, from the dataset's schema file (tables.json). */
export interface DatasetSchema {
  tables: { name: string; columns: string[] }[];
}

export type EvaluatorName = 'bird' | 'spider';

export interface LoadedDataset {
  name: string;
  /** The official evaluator of this dataset (JSONL: bird unless chosen). */
  evaluator: EvaluatorName;
  questions: BenchmarkQuestion[];
  /** Schemas by dbId, where the dataset ships them. */
  schemas: Record<string, DatasetSchema>;
  /** Databases whose files are missing, with how many questions each takes out of the run. */
  missingDatabases: { dbId: string; path: string; questions: number }[];
  /** Facts about what was loaded (e.g. BIRD description CSVs found), printed with the run. */
  notes: Record<string, string | number>;
}
