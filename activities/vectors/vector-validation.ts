import { type Payload, type PayloadValue, VectorStoreError } from './vector-store';

/**
 * Checks shared by every VectorStore implementation, so both reject the same inputs with the
 * same messages (the contract suite relies on it).
 */

/** Portable subset of what Qdrant accepts as a collection name (also safe as a file name). */
const COLLECTION_NAME = /^[A-Za-z0-9_.-]{1,200}$/;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || name === '.' || name === '..') {
    throw new VectorStoreError(`invalid collection name ${JSON.stringify(name)}: use 1-200 of [A-Za-z0-9_.-]`);
  }
}

export function assertDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new VectorStoreError(`vector dimension must be a positive integer, got ${dimension}`);
  }
}

/** Returns the squared L2 norm; throws on wrong length, non-finite entries or a zero vector. */
export function assertVector(vector: Float32Array | number[], dimension: number, what: string): number {
  if (vector.length !== dimension) {
    throw new VectorStoreError(`${what} has dimension ${vector.length}, collection expects ${dimension}`);
  }
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i];
    if (!Number.isFinite(x)) throw new VectorStoreError(`${what} has a non-finite value at index ${i}`);
    sumOfSquares += x * x;
  }
  if (sumOfSquares === 0) throw new VectorStoreError(`${what} is the zero vector: cosine is undefined`);
  return sumOfSquares;
}

/** A unit-length Float32 copy (cosine then is a plain dot product). */
export function toUnitVector(vector: Float32Array | number[], dimension: number, what: string): Float32Array {
  return scaledCopy(vector, unitScale(vector, dimension, what));
}

/** What scales a valid vector to unit length (checked as assertVector checks it). */
export function unitScale(vector: Float32Array | number[], dimension: number, what: string): number {
  return 1 / Math.sqrt(assertVector(vector, dimension, what));
}

export function scaledCopy(vector: Float32Array | number[], scale: number): Float32Array {
  const copy = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) copy[i] = vector[i] * scale;
  return copy;
}

export function assertPayload(payload: Payload, what: string): void {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new VectorStoreError(`${what} payload must be an object`);
  }
  for (const [key, value] of Object.entries(payload)) assertPayloadValue(value, `${what} payload key ${key}`);
}

function assertPayloadValue(value: PayloadValue, what: string): void {
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return;
  if (type === 'number' && Number.isFinite(value)) return;
  throw new VectorStoreError(`${what} must be a string, finite number or boolean, got ${String(value)}`);
}

export function assertSearchOptions(k: number, filter: Payload | undefined): void {
  if (!Number.isInteger(k) || k < 1) throw new VectorStoreError(`search k must be a positive integer, got ${k}`);
  if (filter !== undefined) assertPayload(filter, 'search filter');
}

/** True when `payload` has every key of `filter` with a strictly equal value. */
export function matchesFilter(payload: Payload, filter: Payload): boolean {
  for (const key in filter) {
    if (payload[key] !== filter[key]) return false;
  }
  return true;
}

/** Rejects two points with one id in one call: which one wins would be arbitrary. */
export function assertUniqueIds(ids: string[], collection: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || id.length === 0) {
      throw new VectorStoreError(`point ids must be non-empty strings in ${collection}`);
    }
    if (seen.has(id)) throw new VectorStoreError(`point id ${JSON.stringify(id)} appears twice in one upsert to ${collection}`);
    seen.add(id);
  }
}
