import { isConnectionName, isServerUrl, redactDatabaseSpec } from '../../../core/database-reference';
import type { LoadedDataset } from '../../../core/datasets/benchmark-question';
import { isMissingDatabase } from '../../database/missing-database';

/**
 * What markMissingDatabases (dataset-files.ts) does for a missing file, for databases on a server:
 * the questions over a database the server does not have (Spider's wta_1, which ships without
 * data, is never copied) are marked not executable and listed, and the rest runs. Each server
 * database is opened once, on the worker, which holds the credentials. Any other failure to open
 * (server down, login refused) marks nothing: it may pass, and the question's evaluation then
 * says what it was.
 */
export async function markMissingServerDatabases(loaded: LoadedDataset, open: (reference: string) => Promise<unknown>): Promise<void> {
  const onServer = loaded.questions.filter((q) => !q.notExecutable && (isServerUrl(q.database) || isConnectionName(q.database)));
  const missing = new Map<string, string>();
  for (const reference of new Set(onServer.map((q) => q.database))) {
    const failure = await open(reference).then(
      () => null,
      (err: unknown) => err,
    );
    if (isMissingDatabase(failure)) missing.set(reference, (failure as Error).message);
  }
  for (const [reference, message] of missing) {
    const questions = onServer.filter((q) => q.database === reference);
    for (const q of questions) {
      q.notExecutable = message;
      q.evaluationDatabases = [];
    }
    loaded.missingDatabases.push({ dbId: questions[0].dbId, path: redactDatabaseSpec(reference), questions: questions.length });
  }
}
