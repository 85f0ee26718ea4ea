import type { Embedder } from './embedder';
import { normaliseInPlace } from './unit-vector';

export interface EmbedderPart {
  embedder: Embedder;
  /** Share of the cosine this part decides; the parts' weights are made to sum to 1. */
  weight: number;
  /** How this part reads a text, e.g. stemmed terms for a lexical part; default: as given. */
  text?: (text: string) => string;
}

/**
 * Several embedders as one: each part's unit vector, scaled by √weight, concatenated. The cosine
 * of two such vectors is the weighted sum of the parts' cosines, so one vector search ranks by a
 * blend of, say, spelling (a lexical part: `StuID` for "students") and meaning (a neural part:
 * `Country` for "nation"), which neither finds alone.
 */
export class ConcatenatedEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  private readonly parts: (EmbedderPart & { scale: number })[];

  constructor(parts: EmbedderPart[]) {
    const total = parts.reduce((sum, p) => sum + p.weight, 0);
    if (parts.length === 0 || !(total > 0) || parts.some((p) => !(p.weight >= 0)))
      throw new RangeError('a concatenated embedder needs parts with non-negative weights summing above 0');
    this.parts = parts.map((p) => ({ ...p, scale: Math.sqrt(p.weight / total) }));
    this.dimension = parts.reduce((sum, p) => sum + p.embedder.dimension, 0);
    this.name = this.parts.map((p) => `${p.embedder.name}@${(p.weight / total).toFixed(2)}`).join('+');
  }

  async load(): Promise<void> {
    for (const part of this.parts) await part.embedder.load?.();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors = texts.map(() => new Float32Array(this.dimension));
    let offset = 0;
    for (const part of this.parts) {
      const partVectors = await part.embedder.embed(part.text ? texts.map(part.text) : texts);
      for (const [i, v] of partVectors.entries()) {
        const unit = normaliseInPlace(Float32Array.from(v));
        for (let j = 0; j < unit.length; j++) vectors[i][offset + j] = unit[j] * part.scale;
      }
      offset += part.embedder.dimension;
    }
    return vectors;
  }
}
