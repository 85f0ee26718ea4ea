import type { ScriptPrompt, ScriptRule } from './scripted-llm/server';
import { questionIn } from './scripted-pipeline';

/**
 * Scripted answers for DecoSearch's complex route (tests only): the decomposer's graph per
 * question, each step's SQL by the step's text, and the topology refiner's revisions. What the
 * model saw is in the scripted server's requests for assertions.
 */
export interface ScriptedDagOptions {
  /** The graph the decomposer answers (the n-th time it is asked about the question, from 1). */
  decompose: (question: string, attempt: number) => unknown;
  /** SQL for a step, from its text as the prompt shows it (`@[n]` resolved). */
  nodeSql: (step: string, prompt: ScriptPrompt) => string | Promise<string>;
  /** The refiner's revised graph (the n-th refinement of the question, from 1). */
  refine?: (question: string, call: number, prompt: ScriptPrompt) => unknown;
}

const has = (p: ScriptPrompt, text: string) => p.system.includes(text);

/** The step a node-SQL prompt asks about. */
export function stepIn(user: string): string {
  return /^Step: (.*)$/m.exec(user)?.[1].trim() ?? '';
}

export function scriptedDag(options: ScriptedDagOptions): ScriptRule[] {
  const decomposed = new Map<string, number>();
  const refined = new Map<string, number>();
  const count = (m: Map<string, number>, key: string) => {
    m.set(key, (m.get(key) ?? 0) + 1);
    return m.get(key)!;
  };
  return [
    {
      name: 'decomposer',
      when: (p) => has(p, 'You plan how to answer a hard question'),
      reply: (p) => {
        const question = questionIn(p.user).replace(/\s*Your previous plan could not be used:.*$/, '');
        return JSON.stringify(options.decompose(question, count(decomposed, question)));
      },
    },
    {
      name: 'generator',
      when: (p) => has(p, 'answers one step'),
      reply: async (p) => JSON.stringify({ reasoning: 'scripted step', sql: await options.nodeSql(stepIn(p.user), p) }),
    },
    {
      name: 'topology_refiner',
      when: (p) => has(p, 'You repair a plan'),
      reply: (p) => {
        const question = /^Question: (.*)$/m.exec(p.user)![1].trim();
        return JSON.stringify(options.refine!(question, count(refined, question), p));
      },
    },
  ];
}
