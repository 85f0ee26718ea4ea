import { EmbeddingError } from '../../activities/embeddings/embedding-error';
import { OpenAiEmbedder } from '../../activities/embeddings/openai-embedder';
import { hashEmbedding } from '../../devkit/scripted-llm/hash-embedding';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

describe('OpenAiEmbedder against the scripted OpenAI-protocol server', () => {
  let server: ScriptedLlm;
  const make = (overrides: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}) =>
    new OpenAiEmbedder({ baseURL: server.baseUrl, apiKey: 'test-key', model: 'embed-small', dimension: 64, ...overrides });
  const embeddingRequests = () => server.requests.filter((r) => r.api === 'embeddings');

  beforeEach(async () => {
    server = await startScriptedLlm({ embeddingDim: 64, models: ['embed-small'] });
  });
  afterEach(async () => {
    await server.close();
  });

  it('returns one Float32Array of the model dimension per text, in input order', async () => {
    const texts = ['Alameda County', 'Fresno', 'Joe Sharp'];
    const vectors = await make().embed(texts);
    expect(vectors).toHaveLength(3);
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(64);
      // The server's own vector for that text, so order and decoding are both right.
      hashEmbedding(texts[i], 64).forEach((x, d) => expect(v[d]).toBeCloseTo(x, 6));
    });
    expect(make().name).toBe('openai:embed-small');
  });

  it('splits the input into requests of at most batchSize texts', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `value ${i}`);
    const vectors = await make({ batchSize: 3 }).embed(texts);
    expect(vectors).toHaveLength(7);
    expect(embeddingRequests()).toHaveLength(3);
    expect(Array.from(vectors[6])).toEqual(Array.from((await make().embed(['value 6']))[0]));
  });

  it('is deterministic and sends no request for no texts', async () => {
    const [a] = await make().embed(['Santa Clara']);
    const [b] = await make().embed(['Santa Clara']);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(await make().embed([])).toEqual([]);
    expect(embeddingRequests()).toHaveLength(2);
  });

  it('learns the dimension with connect()', async () => {
    const embedder = await OpenAiEmbedder.connect({ baseURL: server.baseUrl, apiKey: 'test-key', model: 'embed-small' });
    expect(embedder.dimension).toBe(64);
  });

  it('surfaces a rejected key as a non-retryable EmbeddingError naming the status, endpoint and model', async () => {
    const error = await make({ apiKey: 'bad-key' })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    const embeddingError = error as EmbeddingError;
    expect(embeddingError.status).toBe(401);
    expect(embeddingError.retryable).toBe(false);
    expect(embeddingError.message).toMatch(/HTTP 401/);
    expect(embeddingError.message).toContain(server.baseUrl);
    expect(embeddingError.message).toContain('embed-small');
    // maxRetries 0: one attempt only; retrying is Temporal's job.
    expect(embeddingRequests()).toHaveLength(1);
  });

  it('rejects an unknown model without retry hope', async () => {
    const error = (await make({ model: 'no-such-model' })
      .embed(['x'])
      .catch((e: unknown) => e)) as EmbeddingError;
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error.status).toBe(404);
    expect(error.retryable).toBe(false);
  });

  it('marks rate limits and server errors retryable, after exactly one attempt', async () => {
    server.setFaults({ rate: 1, kinds: ['429'] });
    const limited = (await make()
      .embed(['x'])
      .catch((e: unknown) => e)) as EmbeddingError;
    expect(limited).toBeInstanceOf(EmbeddingError);
    expect([limited.status, limited.retryable]).toEqual([429, true]);
    server.setFaults({ rate: 1, kinds: ['500'] });
    const failed = (await make()
      .embed(['x'])
      .catch((e: unknown) => e)) as EmbeddingError;
    expect([failed.status, failed.retryable]).toEqual([500, true]);
    expect(embeddingRequests()).toHaveLength(2);
  });

  it('times out a slow server as a retryable error', async () => {
    server.setFaults({ rate: 1, kinds: ['slow'], slowMs: 2000 });
    const error = (await make({ timeoutMs: 200 })
      .embed(['x'])
      .catch((e: unknown) => e)) as EmbeddingError;
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error.message).toMatch(/timed out/);
    expect(error.retryable).toBe(true);
  });

  it('refuses vectors whose length is not the configured dimension', async () => {
    await expect(make({ dimension: 32 }).embed(['x'])).rejects.toThrow(/length 64, expected 32/);
  });
});
