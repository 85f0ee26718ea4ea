/**
 * A model's grouping of ids made total and exclusive: ids it invented are dropped, an id it put
 * in two groups stays in the first, and an id it left out becomes a group of its own (labelled by
 * `labelOf`), so no failure is silently lost by clustering. Empty groups are dropped; groups keep
 * the model's order, members the order of `ids`.
 */
export function assignEveryId(ids: string[], groups: { label: string; ids: string[] }[], labelOf: (id: string) => string): { label: string; ids: string[] }[] {
  const position = new Map(ids.map((id, i) => [id, i]));
  const taken = new Set<string>();
  const result: { label: string; ids: string[] }[] = [];
  for (const g of groups) {
    const members = [...new Set(g.ids.map((id) => id.trim().replace(/^\[|\]$/g, '')))].filter((id) => position.has(id) && !taken.has(id));
    members.forEach((id) => taken.add(id));
    if (members.length) result.push({ label: g.label, ids: members.sort((a, b) => position.get(a)! - position.get(b)!) });
  }
  for (const id of ids) if (!taken.has(id)) result.push({ label: labelOf(id), ids: [id] });
  return result;
}
