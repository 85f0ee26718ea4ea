import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../llm/llm-provider';

/**
 * Prompts live in `prompts/<name>.md` as templates, never as strings in code (so they can be
 * read, reviewed and versioned like the papers' appendices). A template has a front-matter
 * header (role, version), a `--- system ---` part and a `--- user ---` part; `{{name}}` is
 * replaced by a variable. A variable the template names but the caller does not give is an
 * error, not an empty string.
 */
export const PROMPTS_DIR = path.resolve(__dirname, '../../prompts');

export interface PromptTemplate {
  name: string;
  role: string;
  version: string;
  system: string;
  user: string;
}

const cache = new Map<string, PromptTemplate>();

export function loadPrompt(name: string): PromptTemplate {
  const cached = cache.get(name);
  if (cached) return cached;
  const text = readFileSync(path.join(PROMPTS_DIR, `${name}.md`), 'utf8');
  const header = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!header) throw new Error(`prompt ${name}: missing front-matter header`);
  const meta = Object.fromEntries(
    header[1].split('\n').map((line) => line.split(':').map((s) => s.trim()) as [string, string]),
  );
  const body = text.slice(header[0].length);
  const parts = /--- system ---\n([\s\S]*?)--- user ---\n([\s\S]*)$/.exec(body);
  if (!parts) throw new Error(`prompt ${name}: needs a '--- system ---' and a '--- user ---' part`);
  const template: PromptTemplate = {
    name,
    role: meta.role,
    version: meta.version,
    system: parts[1].trim(),
    user: parts[2].trim(),
  };
  cache.set(name, template);
  return template;
}

function fill(text: string, vars: Record<string, string>, name: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in vars)) throw new Error(`prompt ${name}: variable {{${key}}} was not given`);
    return vars[key];
  });
}

export function renderPrompt(name: string, vars: Record<string, string>): { role: string; messages: ChatMessage[] } {
  const template = loadPrompt(name);
  return {
    role: template.role,
    messages: [
      { role: 'system', content: fill(template.system, vars, name) },
      { role: 'user', content: fill(template.user, vars, name) },
    ],
  };
}
