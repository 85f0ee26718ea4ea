import type { ScriptRule } from './scripted-llm/server';

/**
 * Scripted stand-ins for the exploration models (tests and benchmarks only, never the product):
 * - triage judges a pair ambiguous exactly when the two columns have the same name (the
 *   paper's running example, Patient.Diagnosis / Examination.Diagnosis, is of that kind);
 * - the note writer restates the columns and the measured evidence it was given, so a test can
 *   see the evidence reached the prompt.
 */
export function columnsInTriagePrompt(user: string): string[] {
  return [...user.matchAll(/^Column (\S+)\.(\S+)/gm)].map((m) => m[2].toLowerCase());
}

export const scriptedTriage: ScriptRule = {
  name: 'triager',
  when: (p) => p.system.includes("decodex's schema triage judge"),
  reply: (p) => {
    const [a, b] = columnsInTriagePrompt(p.user);
    const ambiguous = a !== undefined && a === b;
    return JSON.stringify({ ambiguous, reason: ambiguous ? 'scripted: both columns have the same name' : 'scripted: different names' });
  },
};

export const scriptedNoteWriter: ScriptRule = {
  name: 'note_writer',
  when: (p) => p.system.includes("decodex's disambiguation note writer"),
  reply: (p) => {
    const columns =
      /Columns that can be confused[^\n]*\n((?:- .*\n?)+)/
        .exec(p.user)?.[1]
        .trim()
        .split('\n')
        .map((l) => l.slice(2)) ?? [];
    const evidence = /Evidence measured on the data:\n([\s\S]*)$/.exec(p.user)?.[1].trim() ?? '';
    return JSON.stringify({ note: `Scripted note on ${columns.join(', ')}. ${evidence.split('\n').slice(1, 4).join(' ')}` });
  },
};

export const scriptedExplorationRules: ScriptRule[] = [scriptedTriage, scriptedNoteWriter];
