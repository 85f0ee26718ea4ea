import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes that make every run findable in the Web UI ("all failed runs on
 * concert_singer", "runs over 10k tokens"). Defined once; the server registers them, the client
 * sets them at start, workflows upsert them as they learn more.
 */
export const DATABASE = defineSearchAttributeKey('DecodexDatabase', SearchAttributeType.KEYWORD);
export const ROUTE = defineSearchAttributeKey('DecodexRoute', SearchAttributeType.KEYWORD);
export const OUTCOME = defineSearchAttributeKey('DecodexOutcome', SearchAttributeType.KEYWORD);
export const TOKENS = defineSearchAttributeKey('DecodexTokens', SearchAttributeType.INT);
export const REFINEMENTS = defineSearchAttributeKey('DecodexRefinements', SearchAttributeType.INT);
export const PRESET = defineSearchAttributeKey('DecodexPreset', SearchAttributeType.KEYWORD);

export const ALL_SEARCH_ATTRIBUTES = [DATABASE, ROUTE, OUTCOME, TOKENS, REFINEMENTS, PRESET];

/** `--search-attribute Name=Type` arguments for `temporal server start-dev`. */
export function devServerSearchAttributeArgs(): string[] {
  const typeName: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int', TEXT: 'Text', DOUBLE: 'Double', BOOL: 'Bool' };
  return ALL_SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=${typeName[key.type]}`]);
}
