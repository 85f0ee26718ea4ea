import type { Schemas } from '@qdrant/js-client-rest';
import type { Payload } from './vector-store';

/** All pairs must match. Qdrant's `match` takes strings, integers and booleans; a float needs a range. */
export function toQdrantFilter(filter: Payload): Schemas['Filter'] {
  return {
    must: Object.entries(filter).map(([key, value]) =>
      typeof value === 'number' && !Number.isInteger(value) ? { key, range: { gte: value, lte: value } } : { key, match: { value } },
    ),
  };
}
