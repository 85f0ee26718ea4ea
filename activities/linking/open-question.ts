import { databaseLabel } from '../../core/database-label';
import { preparedDatabaseId } from '../../core/preparation/database-id';
import type { PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import type { OpenQuestionOutput } from '../../core/question/question-opening';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import { summarizeKnowledge } from '../knowledge/knowledge-store';
import { ARTIFACT_KINDS } from '../prepared/preparation-artifacts';

/**
 * The first step of a question: the database opens, its size, and what decodex has for it —
 * its preparation (profiles, indices, notes) and the learned knowledge (few-shot examples,
 * rules) — so the workflow can plan which stages can run.
 */
export async function openQuestion(deps: { databases: DatabaseRegistry; store: ArtifactStore }, input: { database: string }): Promise<OpenQuestionOutput> {
  const db = await deps.databases.openOrFail(input.database);
  const schema = await db.schema();
  const manifest = await deps.store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, preparedDatabaseId(input.database));
  return {
    label: databaseLabel(input.database),
    dialect: db.dialect,
    tables: schema.tables.length,
    columns: schema.tables.reduce((n, t) => n + t.columns.length, 0),
    prepared: manifest
      ? {
          databaseId: manifest.databaseId,
          versions: manifest.versions,
          collections: manifest.collections,
          preparedAt: manifest.preparedAt,
          complete: manifest.complete,
          notes: manifest.counts.notes,
        }
      : null,
    knowledge: await summarizeKnowledge(deps.store),
    ...(db.warnings?.length ? { warnings: [...db.warnings] } : {}),
  };
}
