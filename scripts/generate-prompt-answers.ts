/**
 * Writes core/prompts/prompt-answers.ts, the types of the prompts' answers, from
 * prompts/*.schema.json (see core/prompts/answer-types-source.ts). Run it after changing a schema:
 *
 *   npm run generate:prompt-answers
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerTypesSource } from '../core/prompts/answer-types-source';
import { PROMPT_NAMES } from '../core/prompts/prompt-catalog';

const root = path.resolve(__dirname, '..');
const schemas = Object.fromEntries(PROMPT_NAMES.map((name) => [name, JSON.parse(readFileSync(path.join(root, 'prompts', `${name}.schema.json`), 'utf8'))]));
const target = path.join(root, 'core/prompts/prompt-answers.ts');
writeFileSync(target, answerTypesSource(schemas));
console.log(`wrote ${path.relative(root, target)} (${PROMPT_NAMES.length} prompts)`);
