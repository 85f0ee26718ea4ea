import OpenAI from 'openai';
import type { Embedder } from './embedder';
import { EmbeddingError } from './embedding-error';

/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, a local TEI,
 * Ollama, vLLM). The SDK never retries (`maxRetries: 0`): retries belong to Temporal's retry
 * policy so they are visible, and every failure is rethrown as an EmbeddingError naming the
 * endpoint, the model and the server's message.
 */
export interface OpenAiEmbedderOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Length of the vectors the model returns; every response is checked against it. */
  dimension: number;
  /** Texts per HTTP request. Default 64. */
  batchSize?: number;
  /** Per-request timeout in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /**
   * Send `dimensions: dimension` in the request, for models that can shorten their vectors
   * (OpenAI text-embedding-3-*). Off by default: many local servers reject the field.
   */
  requestDimension?: boolean;
}

export type OpenAiEmbedderConnectOptions = Omit<OpenAiEmbedderOptions, 'dimension' | 'requestDimension'>;

const DEFAULT_BATCH_SIZE = 64;
const DEFAULT_TIMEOUT_MS = 60_000;

export class OpenAiEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    if (!Number.isInteger(options.dimension) || options.dimension < 1) {
      throw new RangeError(`embedding dimension must be a positive integer, got ${options.dimension}`);
    }
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new RangeError(`embedding batch size must be a positive integer, got ${this.batchSize}`);
    }
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.dimension = options.dimension;
    this.name = `openai:${options.model}`;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      timeout: this.timeoutMs,
      maxRetries: 0,
    });
  }

  /** Builds an embedder whose dimension is learnt by embedding one probe text. */
  static async connect(options: OpenAiEmbedderConnectOptions): Promise<OpenAiEmbedder> {
    const probe = new OpenAiEmbedder({ ...options, dimension: 1, batchSize: 1 });
    const [vector] = await probe.requestBatch(['dimension probe'], false);
    return new OpenAiEmbedder({ ...options, dimension: vector.length });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      vectors.push(...(await this.requestBatch(batch, true)));
    }
    return vectors;
  }

  private async requestBatch(batch: string[], checkDimension: boolean): Promise<Float32Array[]> {
    const where = `embeddings request to ${this.options.baseURL} (model ${this.options.model})`;
    let response: OpenAI.CreateEmbeddingResponse;
    const started = Date.now();
    try {
      response = await this.client.embeddings.create({
        model: this.options.model,
        input: batch,
        // Explicit floats: the SDK's default base64 is not served by every compatible server.
        encoding_format: 'float',
        ...(this.options.requestDimension ? { dimensions: this.dimension } : {}),
      });
    } catch (error) {
      const timedOut = Date.now() - started >= this.timeoutMs;
      throw toEmbeddingError(where, error, timedOut);
    }
    const data = response?.data;
    if (!Array.isArray(data) || data.length !== batch.length) {
      const got = Array.isArray(data) ? `${data.length} embeddings` : 'no data array';
      throw new EmbeddingError(`${where} returned ${got} for ${batch.length} inputs`, false);
    }
    // The API labels each vector with its input index; do not rely on response order.
    const ordered = [...data].sort((a, b) => a.index - b.index);
    return ordered.map((item, position) => {
      if (item.index !== position) {
        throw new EmbeddingError(`${where} returned indices that do not cover 0..${batch.length - 1}`, false);
      }
      const vector = toFloat32(item.embedding as unknown);
      if (vector === undefined) {
        throw new EmbeddingError(`${where} returned an embedding that is neither a number array nor base64`, false);
      }
      if (checkDimension && vector.length !== this.dimension) {
        throw new EmbeddingError(`${where} returned vectors of length ${vector.length}, expected ${this.dimension}`, false);
      }
      return vector;
    });
  }
}

function toFloat32(embedding: unknown): Float32Array | undefined {
  if (Array.isArray(embedding) && embedding.every((x) => typeof x === 'number')) {
    return Float32Array.from(embedding as number[]);
  }
  // Some servers answer base64 little-endian float32 even when floats were asked for.
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) return undefined;
    const vector = new Float32Array(bytes.length / 4);
    new Uint8Array(vector.buffer).set(bytes);
    return vector;
  }
  return undefined;
}

/**
 * `timedOut` is our own clock's verdict: the SDK recognises its abort only when the abort error
 * comes from the same JavaScript realm (not so under Jest), else it reports a plain
 * connection error.
 */
function toEmbeddingError(where: string, error: unknown, timedOut: boolean): EmbeddingError {
  if (error instanceof OpenAI.APIConnectionTimeoutError || (timedOut && error instanceof OpenAI.APIConnectionError)) {
    return new EmbeddingError(`${where} timed out: ${error.message}`, true, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new EmbeddingError(`${where} could not connect: ${error.message}`, true, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    // 408/409/429 and 5xx are transient; other 4xx (bad key, unknown model) will fail again.
    const retryable = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    return new EmbeddingError(`${where} failed with HTTP ${status ?? '?'}: ${error.message}`, retryable, status, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EmbeddingError(`${where} failed: ${message}`, false, undefined, { cause: error });
}
