/**
 * Run by local-model.test.ts in a child Node process (`node --require tsx/cjs`), because jest's
 * CommonJS sandbox cannot import node-llama-cpp (ESM-only). It loads the real GGUF through the
 * production path (env config → LLM service with its cache → local provider), asks each
 * structured role once, two of them at the same time (two sequences of one model), then repeats
 * one call to hit the cache. It prints one JSON line per call for the test to check.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { createGenerationActivities } from '../../activities/generation/generation-activities';
import type { JsonSchema } from '../../activities/llm/json-schema';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService, type LlmCallRequest, type LlmCallResult, type LlmService } from '../../activities/llm/llm-service';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';
import { NOTE_SCHEMA } from '../../activities/exploration/synthesize-note';
import { VERDICT_SCHEMA } from '../../activities/exploration/triage-ambiguous-pair';
import { renderPrompt } from '../../activities/prompts/render-prompt';

export interface ChildCall {
  label: string;
  schema?: JsonSchema;
  text: string;
  record: LlmCallResult['record'];
}

/** Not a decodex role today: a schema with every shape a future structured role may use. */
export const NESTED_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    table: { type: 'string' },
    kind: { type: 'string', enum: ['fact', 'dimension'] },
    columns: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, type: { type: 'string', enum: ['INTEGER', 'TEXT', 'REAL', 'DATE'] }, key: { type: 'boolean' } },
        required: ['name', 'type', 'key'],
        additionalProperties: false,
      },
    },
    rows: { type: 'integer' },
  },
  required: ['table', 'kind', 'columns', 'rows'],
  additionalProperties: false,
};

const SCHEMA_DDL = 'CREATE TABLE customer (\n  customer_id INTEGER,\n  name TEXT,\n  city TEXT,\n  PRIMARY KEY (customer_id)\n);';

/** The service, recording what each call sent and got (the generation activity hides the raw text). */
function recording(service: LlmService, calls: ChildCall[], label: () => string): LlmService {
  return {
    async call<T>(request: LlmCallRequest) {
      const result = await service.call<T>(request);
      calls.push({ label: label(), schema: request.schema, text: result.text, record: result.record });
      return result;
    },
  };
}

async function main(): Promise<void> {
  const store = openSqliteArtifactStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-local-llm-')), 'artifacts.sqlite'));
  const calls: ChildCall[] = [];
  const service = createLlmService({ config: loadLlmConfig(process.env), store });
  const generator = (label: string) => createGenerationActivities(recording(service, calls, () => label));
  const sqlQuestion = { question: 'How many customers live in London?', dialect: 'sqlite', schemaDdl: SCHEMA_DDL };

  await Promise.all([
    generator('generator').generateSql(sqlQuestion),
    recording(service, calls, () => 'nested').call({
      role: 'describer',
      schema: NESTED_SCHEMA,
      messages: [
        { role: 'system', content: 'You describe database tables as JSON.' },
        { role: 'user', content: `${SCHEMA_DDL}\n\nDescribe the table customer: its kind, each column with its type and whether it is a key, and an estimate of its rows.` },
      ],
    }),
  ]);
  await generator('generator again').generateSql(sqlQuestion);

  // The explorator's structured roles, with their real templates and schemas (the paper's
  // running example: one final diagnosis per patient vs. several per examination).
  const columnA = 'Patient.Diagnosis (TEXT): 2 rows, 2 distinct; values RA, SLE; one per patient';
  const columnB = 'Examination.Diagnosis (TEXT): 3 rows, 3 distinct; values RA, SLE, PSS; several per patient';
  const triage = renderPrompt('triage-pair-profiles', { dialect: 'sqlite', columnA, columnB });
  await recording(service, calls, () => 'triager').call({ role: triage.role, messages: triage.messages, schema: VERDICT_SCHEMA });
  const note = renderPrompt('synthesize-note', {
    dialect: 'sqlite',
    columns: 'Patient.Diagnosis, Examination.Diagnosis',
    profiles: `${columnA}\n${columnB}`,
    evidence: 'join Patient.ID = Examination.ID: coverage 1, fan-out 1.5, agreement 0.33; value overlap (Jaccard) 1',
  });
  await recording(service, calls, () => 'note_writer').call({ role: note.role, messages: note.messages, schema: NOTE_SCHEMA });

  for (const call of calls) process.stdout.write(JSON.stringify(call) + '\n');
  await disposeLocalModels();
  await store.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
