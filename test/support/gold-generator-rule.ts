import type { ScriptRule } from '../scripted-llm/server';

/** Text of the question in a generator prompt (the template ends with "Question: <q>"). */
export function questionIn(user: string): string {
  const m = /Question: ([\s\S]*)$/.exec(user);
  return m ? m[1].trim() : '';
}

/**
 * A scripted generator that answers each known question with the SQL the test gives for it,
 * as the JSON object the generator prompt asks for. Unknown questions get no rule match
 * (the scripted server then answers 400, which must surface as a classified error).
 */
export function scriptedGenerator(sqlByQuestion: Map<string, string>): ScriptRule {
  return {
    name: 'generator',
    when: (p) => p.system.includes("decodex's SQL generator") && sqlByQuestion.has(questionIn(p.user)),
    reply: (p) => JSON.stringify({ sql: sqlByQuestion.get(questionIn(p.user)) }),
  };
}
