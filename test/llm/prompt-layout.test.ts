import { askModel } from '../../activities/prompts/ask-model';
import { inPromptLayout } from '../../activities/prompts/prompt-layout';
import { loadSharedText, renderPrompt } from '../../activities/prompts/render-prompt';
import { loadLlmConfig, settingsForRole } from '../../activities/llm/llm-config';
import type { PromptLayout } from '../../activities/llm/llm-config';
import { answeringService } from '../support/answering-llm-service';

const CONTEXT_VARS = {
  dialect: 'sqlite',
  schema: 'CREATE TABLE pilot (id INTEGER, name TEXT, rank INTEGER)',
  knowledge: '',
  evidence: 'none',
  hintRules: '',
  question: 'Which pilots rank above 3?',
};

/** A model that answers every call with plain SQL and keeps what it was asked. */
const recordingService = (layout: PromptLayout) =>
  answeringService(Array(4).fill('SELECT name FROM pilot WHERE rank > 3;'), { sqlFormat: () => 'plain', promptLayout: () => layout });

const revisionVars = { ...CONTEXT_VARS, attemptCount: '1', history: '1. SELECT nme FROM pilot\n   error: no such column: nme' };

describe('prompt layouts (activities/prompts/prompt-layout.ts)', () => {
  it('instructions first is the default and leaves the rendered prompt as it is', async () => {
    expect(settingsForRole(loadLlmConfig({}), 'generator').promptLayout).toBeUndefined();
    const rendered = renderPrompt('generate-sql', CONTEXT_VARS);
    expect(inPromptLayout(rendered.messages, rendered.context, 'instructions-first')).toBe(rendered.messages);
    const service = recordingService('instructions-first');
    await askModel(service, 'generate-sql', CONTEXT_VARS);
    expect(service.asked[0].messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(service.asked[0].messages[0].content).toMatch(/^You are an expert sqlite SQL writer/);
  });

  it('context first opens every role of a question alike, and keeps each role its own instructions and data last', async () => {
    const service = recordingService('context-first');
    await askModel(service, 'generate-sql', CONTEXT_VARS);
    await askModel(service, 'revise-sql', revisionVars);
    const [generation, revision] = service.asked.map((r) => r.messages);
    expect(generation.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    // The three opening turns are the same text for both roles: the prefix a local model keeps.
    expect(revision.slice(0, 3)).toEqual(generation.slice(0, 3));
    expect(generation[0].content).toBe(loadSharedText('context-first-system'));
    expect(generation[1].content).toContain('CREATE TABLE pilot');
    expect(generation[1].content).toContain('Which pilots rank above 3?');
    // The role's own words (the SQL format already applied) and its data come last, next to the answer.
    expect(generation[3].content).toMatch(/^You are an expert sqlite SQL writer/);
    expect(generation[3].content).toContain('as plain SQL ending with a semicolon');
    expect(generation[3].content).not.toContain('CREATE TABLE pilot');
    expect(revision[3].content).toMatch(/^You are an expert sqlite SQL debugger/);
    expect(revision[3].content).toContain('no such column: nme');
  });

  it('a prompt without the question context keeps its layout', () => {
    const messages = [
      { role: 'system' as const, content: 'Answer in JSON.' },
      { role: 'user' as const, content: 'Question: how many?' },
    ];
    expect(inPromptLayout(messages, undefined, 'context-first')).toBe(messages);
    expect(inPromptLayout(messages, 'Database schema: x', 'context-first')).toBe(messages);
  });

  it('is a setting per role, and an unknown layout is refused by name', () => {
    const config = loadLlmConfig({ DECODEX_LLM_PROMPT_LAYOUT: 'context-first', DECODEX_LLM_JUDGER_PROMPT_LAYOUT: 'instructions-first' });
    expect(settingsForRole(config, 'generator').promptLayout).toBe('context-first');
    expect(settingsForRole(config, 'judger').promptLayout).toBe('instructions-first');
    expect(() => loadLlmConfig({ DECODEX_LLM_PROMPT_LAYOUT: 'sideways' })).toThrow(
      'DECODEX_LLM_PROMPT_LAYOUT must be one of instructions-first, context-first, got "sideways"',
    );
  });
});
