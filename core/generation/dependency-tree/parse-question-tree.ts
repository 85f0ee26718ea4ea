import { quotedSpans } from '../../indexing/question-literals';
import { findAggregates } from './aggregates';
import { attachChunks } from './attach-chunks';
import { findExplicitOrdering } from './explicit-ordering';
import { buildFilters } from './filters';
import { asksDistinct, findGroupBy } from './grouping';
import { extractLiterals } from './literal-values';
import { askingWordAt } from './asking-words';
import { findProjections } from './projections';
import type { Aggregate, Filter, QuestionTree } from './question-tree';
import { tokenizeQuestion } from './question-tokens';
import { findComparativeChoice, findSuperlative } from './superlatives';

/**
 * Parses a question into DexterSQL's SQL-oriented tree (§3.3.2), deterministically: the same
 * question always gives the same tree, with no model call. Literals are found first, the other
 * elements attach to them and to the noun chunks around them, and `attachChunks` links every
 * chunk to its head.
 */
export function parseQuestionTree(question: string): QuestionTree {
  const quoted = quotedSpans(question);
  const tokenized = tokenizeQuestion(
    question,
    quoted.map((q) => [q.start, q.end]),
  );
  const { tokens } = tokenized;
  const literals = extractLiterals(tokenized, quoted);
  const superlative = findSuperlative(tokens, literals) ?? findComparativeChoice(tokens);
  const conditionLiterals = literals.filter((l) => l !== superlative?.limitLiteral);
  const all = buildFilters(tokens, conditionLiterals);
  const guessed = (f: Filter): boolean => f.values.every((v) => v.kind === 'word');
  const conditions = all.filter((f) => !guessed(f));
  const isTemporal = (kind: string): boolean => kind === 'date' || kind === 'year';
  const { aggregates: named, cueTokens, cues } = findAggregates(tokens);
  const aggregates: Aggregate[] = [...named];
  for (const f of conditions) if (f.aggregate) aggregates.push({ function: f.aggregate, argument: f.column ?? '*', cue: f.operator });
  if (superlative?.ordering.aggregate)
    aggregates.push({ function: superlative.ordering.aggregate, argument: superlative.ordering.by, cue: superlative.ordering.cue });
  const explicit = findExplicitOrdering(tokens);
  // An adjective value stays in the asked-for phrase too ("the defensive rating"): it may describe rather than filter.
  const projections = findProjections(tokens, named, cueTokens, (i) => literals.some((l) => l.kind !== 'word' && i >= l.tokens[0] && i <= l.tokens[1]));
  const groups = findGroupBy(tokens);
  const possibleValues = all.filter(guessed);
  const nodes = attachChunks({
    tokens,
    askAt: askingWordAt(tokens),
    projections,
    aggregateCues: cues,
    conditions,
    possibleValues,
    superlative,
    groupStarts: groups.map((g) => g.start),
  });
  return {
    question,
    nodes,
    projections,
    aggregates,
    filters: conditions.filter((f) => !f.values.every((v) => isTemporal(v.kind))),
    temporal: conditions.filter((f) => f.values.every((v) => isTemporal(v.kind))),
    possibleValues,
    orderBy: superlative ? [superlative.ordering, ...explicit] : explicit,
    limit: superlative ? superlative.limit : null,
    groupBy: groups.map((g) => g.phrase),
    distinct: asksDistinct(tokens),
  };
}
