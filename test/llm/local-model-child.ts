/**
 * Run by local-model.test.ts in a child Node process (`node --require tsx/cjs`), because jest's
 * CommonJS sandbox cannot import node-llama-cpp (ESM-only). It loads the real GGUF through the
 * production path (env config → LLM service with its cache → local provider), asks each
 * role of the prompt catalog once through askModel, two calls at the same time (two sequences of
 * one model), then repeats the first answered call to hit the cache. A call that ends in an
 * LlmError is recorded with the error's kind and details. It prints one JSON line per call.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { askModel, onlyValues, type AskOptions } from '../../activities/prompts/ask-model';
import type { JsonSchema } from '../../activities/llm/json-schema';
import { LlmError } from '../../activities/llm/errors';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { createLlmService, type LlmCallRequest, type LlmCallResult, type LlmService } from '../../activities/llm/llm-service';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';
import { loadPrompt, loadQuestionContext } from '../../activities/prompts/render-prompt';
import { PROMPT_CATALOG, PROMPT_NAMES, ROLES, type PromptName } from '../../core/prompts/prompt-catalog';
import { runChildMain } from './child-main';

export interface ChildCall {
  label: string;
  schema?: JsonSchema;
  text?: string;
  record?: LlmCallResult['record'];
  error?: { kind: string; message: string; details: Record<string, number | string> };
  /** For the repeated call: the label of the call it repeats. */
  repeats?: string;
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
    ...(service.sqlFormat ? { sqlFormat: (role: string) => service.sqlFormat!(role) } : {}),
    async call<T>(request: LlmCallRequest) {
      try {
        const result = await service.call<T>(request);
        calls.push({ label: label(), schema: request.schema, text: result.text, record: result.record });
        return result;
      } catch (err) {
        if (err instanceof LlmError)
          calls.push({ label: label(), schema: request.schema, error: { kind: err.kind, message: err.message, details: err.details as never } });
        throw err;
      }
    },
  };
}

/** Generic but plausible values for every variable a template names (the real pipeline fills them from a database). */
function varsFor(template: PromptName): Record<string, string> {
  const { system, user, context } = loadPrompt(template);
  const shared = context === 'question' ? loadQuestionContext() : '';
  const names = [...`${shared}\n${system}\n${user}`.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
  const known: Record<string, string> = {
    dialect: 'SQLite',
    schema: SCHEMA_DDL,
    schemaView: `Database schema:\n${SCHEMA_DDL}`,
    question: 'How many customers live in London?',
    evidence: '(none)',
    knowledge: '',
    hintRules: '',
    sql: "SELECT COUNT(*) FROM customer WHERE city = 'London'",
    sqlA: "SELECT COUNT(*) FROM customer WHERE city = 'London'",
    sqlB: "SELECT COUNT(*) FROM customer WHERE LOWER(city) = 'london'",
    columnA: 'customer.city (TEXT): 3 distinct; values London, Paris, Rome',
    columnB: 'customer.name (TEXT): 3 distinct; values Ann, Bob, Cy',
    candidates:
      '[customer.city~supplier.city] on customer.city, supplier.city: customer.city is where a customer lives; supplier.city where a supplier ships from.',
    rules: '[ratio-cast] Integer division truncates ratios\n  bad: a / b on integers\n  correct: CAST(a AS REAL) / b\n  fix: cast one operand to REAL',
  };
  return Object.fromEntries(names.map((n) => [n, known[n] ?? `(${n}: none)`]));
}

async function main(): Promise<void> {
  const store = openSqliteArtifactStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-local-llm-')), 'artifacts.sqlite'));
  const calls: ChildCall[] = [];
  const service = createLlmService({ config: loadLlmConfig(process.env), store });
  // Every role of the prompt catalog, each through its first template and the one askModel path.
  const firstTemplateOf = (role: string) => PROMPT_NAMES.find((n) => PROMPT_CATALOG[n].role === role)!;
  // The note and rule selectors offer only the ids shown, as the real activities do.
  const narrowing: Partial<Record<PromptName, AskOptions>> = {
    'select-notes': { narrow: onlyValues('relevant', ['customer.city~supplier.city']) },
    'select-rules': { narrow: onlyValues('rules', ['ratio-cast']) },
  };
  const ask = (label: string, template: PromptName) =>
    askModel(
      recording(service, calls, () => label),
      template,
      varsFor(template),
      narrowing[template],
    ).catch((err: unknown) => {
      // A model's LlmError was recorded above and the test checks it; anything else is a bug here.
      if (calls.at(-1)?.label !== label || !calls.at(-1)?.error) throw err;
    });
  const templateOf = new Map<string, PromptName>();

  // Two at the same time: two sequences of one model.
  await Promise.all([
    ask('generator', 'generate-sql'),
    recording(service, calls, () => 'nested').call({
      role: 'describer',
      schema: NESTED_SCHEMA,
      messages: [
        { role: 'system', content: 'You describe database tables as JSON.' },
        {
          role: 'user',
          content: `${SCHEMA_DDL}\n\nDescribe the table customer: its kind, each column with its type and whether it is a key, and an estimate of its rows.`,
        },
      ],
    }),
  ]);
  templateOf.set('generator', 'generate-sql');
  for (const role of ROLES.filter((r) => r !== 'generator')) {
    templateOf.set(role, firstTemplateOf(role));
    await ask(role, firstTemplateOf(role));
  }
  const answered = calls.find((c) => !c.error && templateOf.has(c.label));
  if (answered) {
    await ask('again', templateOf.get(answered.label)!);
    calls[calls.length - 1].repeats = answered.label;
  }

  // The product's default for SQL (plain text, no grammar) through the same model and path.
  const plainService = createLlmService({ config: loadLlmConfig({ ...process.env, DECODEX_LLM_SQL_FORMAT: 'plain' }), store });
  await askModel(
    recording(plainService, calls, () => 'plain'),
    'generate-sql',
    varsFor('generate-sql'),
  ).catch((err: unknown) => {
    if (calls.at(-1)?.label !== 'plain' || !calls.at(-1)?.error) throw err;
  });

  for (const call of calls) process.stdout.write(JSON.stringify(call) + '\n');
  await disposeLocalModels();
  await store.close();
}

runChildMain(main);
