import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROMPT_CATALOG, type PromptName } from '../../core/prompts/prompt-catalog';
import type { JsonSchema } from '../llm/json-schema';
import type { ChatMessage } from '../llm/llm-provider';

/**
 * Prompts live in `prompts/<name>.md` as templates, never as strings in code (so they can be
 * read, reviewed and versioned like the papers' appendices). A template has a front-matter
 * header (its version), a `--- system ---` part and a `--- user ---` part; `{{name}}` is
 * replaced by a variable. A variable the template names but the caller does not give is an
 * error, not an empty string. The answer's JSON schema sits beside it in `<name>.schema.json`;
 * the role comes from the prompt catalog (core/prompts/prompt-catalog.ts), the only list of roles.
 *
 * A template about the question being answered says `context: question` in its front matter. It
 * then leaves the schema, knowledge, hint and question out: they open the user message, from the
 * shared template `prompts/shared/question-context.md`, and the template's own data follows. The
 * role's instructions stay first, as the system message: with the shared context first instead
 * (one prefix for every role of a question) Qwen2.5-Coder-1.5B answered 8 of 24 Spider train
 * questions right against 13 of 24 (preset quick, same sample), so prefixes are shared between
 * the calls of one role (revisions, the three preliminary SQLs, tournament games, DAG nodes) and
 * between questions, not across roles. That is the default layout; askModel can lay the same
 * prompt out context first (prompt-layout.ts, the `promptLayout` setting) from `context` below.
 */
export const PROMPTS_DIR = path.resolve(__dirname, '../../prompts');

export interface PromptTemplate {
  name: PromptName;
  role: string;
  version: string;
  /** `question`: the shared question context comes first (see above). */
  context?: 'question';
  system: string;
  user: string;
  /** The JSON schema the answer must satisfy. */
  schema: JsonSchema;
}

const cache = new Map<string, PromptTemplate>();

export function loadPrompt(name: PromptName): PromptTemplate {
  const cached = cache.get(name);
  if (cached) return cached;
  const spec = PROMPT_CATALOG[name];
  if (!spec) throw new Error(`prompt ${name}: not in the prompt catalog (core/prompts/prompt-catalog.ts)`);
  const text = readFileSync(path.join(PROMPTS_DIR, `${name}.md`), 'utf8');
  const header = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!header) throw new Error(`prompt ${name}: missing front-matter header`);
  const meta = Object.fromEntries(header[1].split('\n').map((line) => line.split(':').map((s) => s.trim()) as [string, string]));
  if (!meta.version) throw new Error(`prompt ${name}: the front matter needs a version`);
  const body = text.slice(header[0].length);
  const parts = /--- system ---\n([\s\S]*?)--- user ---\n([\s\S]*)$/.exec(body);
  if (!parts) throw new Error(`prompt ${name}: needs a '--- system ---' and a '--- user ---' part`);
  if (meta.context !== undefined && meta.context !== 'question') throw new Error(`prompt ${name}: context must be "question", got "${meta.context}"`);
  const template: PromptTemplate = {
    name,
    role: spec.role,
    version: meta.version,
    ...(meta.context ? { context: 'question' as const } : {}),
    system: parts[1].trim(),
    user: parts[2].trim(),
    schema: loadSchema(name),
  };
  cache.set(name, template);
  return template;
}

function loadSchema(name: string): JsonSchema {
  const file = path.join(PROMPTS_DIR, `${name}.schema.json`);
  if (!existsSync(file)) throw new Error(`prompt ${name}: its answer schema ${name}.schema.json is missing`);
  return JSON.parse(readFileSync(file, 'utf8')) as JsonSchema;
}

function fill(text: string, vars: Record<string, string>, name: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in vars)) throw new Error(`prompt ${name}: variable {{${key}}} was not given`);
    return vars[key];
  });
}

export interface RenderedPrompt {
  role: string;
  messages: ChatMessage[];
  schema: JsonSchema;
  /** A `context: question` prompt's shared context, as it opens the user message (prompt-layout.ts moves it). */
  context?: string;
}

const sharedTexts = new Map<string, string>();

/** A shared template of `prompts/shared/` (front matter dropped), e.g. the question context. */
export function loadSharedText(name: 'question-context' | 'hint-rules' | 'context-first-system' | 'context-first-reply' | 'decomposition-seed-plan'): string {
  let text = sharedTexts.get(name);
  if (text === undefined) {
    const file = readFileSync(path.join(PROMPTS_DIR, 'shared', `${name}.md`), 'utf8');
    const header = /^---\n[\s\S]*?\n---\n/.exec(file);
    if (!header) throw new Error(`prompts/shared/${name}.md: missing front-matter header`);
    text = file.slice(header[0].length).trim();
    sharedTexts.set(name, text);
  }
  return text;
}

/** The shared opening of every `context: question` prompt (prompts/shared/question-context.md). */
export const loadQuestionContext = (): string => loadSharedText('question-context');

export function renderPrompt(name: PromptName, vars: Record<string, string>): RenderedPrompt {
  const template = loadPrompt(name);
  const system = fill(template.system, vars, name);
  const user = fill(template.user, vars, name);
  const context = template.context === 'question' ? fill(loadQuestionContext(), vars, name) : '';
  const messages: ChatMessage[] =
    template.context === 'question'
      ? [
          { role: 'system', content: system },
          { role: 'user', content: user ? `${context}\n\n${user}` : context },
        ]
      : [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ];
  return { role: template.role, schema: template.schema, messages, ...(context ? { context } : {}) };
}
