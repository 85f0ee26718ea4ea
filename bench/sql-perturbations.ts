import { sqlUnits, type SqlUnit } from '../core/evaluation/sql-lexical-units';

/**
 * Rewrites of a gold query that the evaluators must judge in known ways, for the
 * perturbed-prediction check. Each works on the outermost SELECT only and returns null when it
 * does not apply (so every produced pair is a real perturbation):
 * - permute_select: the first two top-level select expressions swapped;
 * - add_distinct: DISTINCT after the outermost SELECT;
 * - drop_order_by: a trailing top-level ORDER BY removed (only without LIMIT, which would change rows);
 * - change_literal: the first string literal gets a suffix, else the first integer is incremented.
 */
export type Perturbation = 'permute_select' | 'add_distinct' | 'drop_order_by' | 'change_literal';
export const PERTURBATIONS: Perturbation[] = ['permute_select', 'add_distinct', 'drop_order_by', 'change_literal'];

interface Located {
  unit: SqlUnit;
  depth: number;
  upper: string;
}

function locate(sql: string): Located[] {
  let depth = 0;
  return sqlUnits(sql).map((unit) => {
    if (unit.text === ')') depth--;
    const located = { unit, depth, upper: unit.kind === 'word' ? unit.text.toUpperCase() : '' };
    if (unit.text === '(') depth++;
    return located;
  });
}

const join = (units: Located[]) => units.map((u) => u.unit.text).join('');
const topWord = (units: Located[], word: string, from = 0) => units.findIndex((u, i) => i >= from && u.depth === 0 && u.upper === word);
const isCompound = (units: Located[]) => ['UNION', 'INTERSECT', 'EXCEPT'].some((w) => topWord(units, w) >= 0);

export function perturb(sql: string, kind: Perturbation): string | null {
  const units = locate(sql);
  const select = topWord(units, 'SELECT');
  if (select < 0) return null;
  switch (kind) {
    case 'permute_select':
      return permuteSelect(units, select);
    case 'add_distinct': {
      const next = units.findIndex((u, i) => i > select && u.unit.kind === 'word');
      if (next < 0 || units[next].upper === 'DISTINCT') return null;
      return `${join(units.slice(0, select + 1))} DISTINCT${join(units.slice(select + 1))}`;
    }
    case 'drop_order_by': {
      const order = topWord(units, 'ORDER');
      if (order < 0 || isCompound(units) || topWord(units, 'LIMIT', order) >= 0) return null;
      return join(units.slice(0, order)).trimEnd();
    }
    case 'change_literal':
      return changeLiteral(units);
  }
}

function permuteSelect(units: Located[], select: number): string | null {
  if (isCompound(units)) return null;
  const from = topWord(units, 'FROM', select);
  if (from < 0) return null;
  let start = select + 1;
  if (units.slice(start, from).find((u) => u.unit.kind === 'word')?.upper === 'DISTINCT')
    start = units.findIndex((u, i) => i >= start && u.upper === 'DISTINCT') + 1;
  const commas = units.map((u, i) => (i >= start && i < from && u.depth === 0 && u.unit.text === ',' ? i : -1)).filter((i) => i >= 0);
  if (commas.length === 0) return null;
  const second = commas.length > 1 ? commas[1] : from;
  const first = join(units.slice(start, commas[0])).trim();
  const other = join(units.slice(commas[0] + 1, second)).trim();
  if (first === other) return null;
  return `${join(units.slice(0, start))} ${other} , ${first} ${join(units.slice(second))}`.replace(/ {2,}/g, ' ');
}

function changeLiteral(units: Located[]): string | null {
  const string = units.findIndex((u) => u.unit.kind === 'quoted' && (u.unit.text.startsWith("'") || u.unit.text.startsWith('"')));
  if (string >= 0) {
    const text = units[string].unit.text;
    const changed = `${text.slice(0, -1)}_x${text.slice(-1)}`;
    return join(units.slice(0, string)) + changed + join(units.slice(string + 1));
  }
  const number = units.findIndex(
    (u, i) => u.unit.kind === 'word' && /^\d+$/.test(u.unit.text) && units[i - 1]?.unit.text !== '.' && units[i + 1]?.unit.text !== '.',
  );
  if (number < 0) return null;
  return join(units.slice(0, number)) + String(Number(units[number].unit.text) + 1) + join(units.slice(number + 1));
}
