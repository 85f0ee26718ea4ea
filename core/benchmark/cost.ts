import type { RunUsage } from '../usage';

/**
 * Prices in US dollars per million tokens, by model name (`*` for any other model), e.g.
 * `{"gpt-4o": {"inputPerMillion": 2.5, "outputPerMillion": 10}}`. Tokens served from decodex's
 * LLM cache are reported as 0 and cost nothing.
 */
export type PriceTable = Record<string, { inputPerMillion: number; outputPerMillion: number }>;

export function validatePriceTable(value: unknown, source: string): PriceTable {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${source}: prices must be an object of model -> {inputPerMillion, outputPerMillion}`);
  for (const [model, price] of Object.entries(value as Record<string, unknown>)) {
    const p = price as Record<string, unknown>;
    if (typeof p?.inputPerMillion !== 'number' || typeof p?.outputPerMillion !== 'number') {
      throw new Error(`${source}: price of "${model}" needs numeric inputPerMillion and outputPerMillion`);
    }
  }
  return value as PriceTable;
}

/**
 * Estimated dollars of a usage, role by role with the model that serves the role. Null when a
 * role's model has no price (an estimate that silently skipped a role would mislead).
 */
export function estimateCost(usage: RunUsage, roleModels: Record<string, string>, prices: PriceTable): number | null {
  let dollars = 0;
  for (const [role, used] of Object.entries(usage.byRole)) {
    if (used.promptTokens + used.completionTokens === 0) continue;
    const model = roleModels[role] ?? roleModels['*'];
    const price = model !== undefined ? (prices[model] ?? prices['*']) : prices['*'];
    if (!price) return null;
    dollars += (used.promptTokens * price.inputPerMillion + used.completionTokens * price.outputPerMillion) / 1e6;
  }
  return dollars;
}
