import OpenAI from 'openai';
import { faultPicker } from '../../devkit/scripted-llm/faults';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

describe('scripted LLM test server', () => {
  let llm: ScriptedLlm;
  afterEach(() => llm?.close());

  it('injects the same faults for the same seed, and others for another seed', () => {
    const sequence = (seed: number) => {
      const next = faultPicker({ rate: 0.4, seed });
      return Array.from({ length: 200 }, () => next());
    };
    const a = sequence(7);
    expect(sequence(7)).toEqual(a);
    expect(sequence(8)).not.toEqual(a);
    const rate = a.filter((f) => f !== null).length / a.length;
    expect(rate).toBeGreaterThan(0.25);
    expect(rate).toBeLessThan(0.55);
    expect(new Set(a.filter((f) => f !== null))).toEqual(new Set(['429', '500', 'slow', 'malformed']));
  });

  it('records faults per request over HTTP, deterministically', async () => {
    llm = await startScriptedLlm({ rules: [{ name: 'r', when: () => true, reply: () => 'ok' }], faults: { rate: 0.5, kinds: ['429', '500'], seed: 3 } });
    const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0 });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      outcomes.push(
        await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `q${i}` }] }).then(
          () => '200',
          (e: { status?: number }) => String(e.status),
        ),
      );
    }
    const expected = faultPicker({ rate: 0.5, kinds: ['429', '500'], seed: 3 });
    expect(outcomes).toEqual(outcomes.map(() => expected() ?? '200'));
    expect(llm.requests.map((r) => String(r.status))).toEqual(outcomes);
    expect(outcomes).toContain('200');
    expect(outcomes.some((o) => o !== '200')).toBe(true);
  });

  it('serves deterministic, normalised embeddings in float and base64 form', async () => {
    llm = await startScriptedLlm({ embeddingDim: 32 });
    const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0 });
    const texts = ['singer name and age', 'name of the singer', 'concert stadium capacity'];
    // Without encoding_format the SDK asks for base64 and decodes it.
    const decoded = await client.embeddings.create({ model: 'embed', input: texts });
    const floats = await client.embeddings.create({ model: 'embed', input: texts, encoding_format: 'float' });
    expect(decoded.data).toHaveLength(3);
    expect(decoded.usage).toEqual({ prompt_tokens: 11, total_tokens: 11 });
    const vectors = floats.data.map((d) => d.embedding);
    for (const [i, v] of vectors.entries()) {
      expect(v).toHaveLength(32);
      expect(Math.hypot(...v)).toBeCloseTo(1, 6);
      decoded.data[i].embedding.forEach((x, j) => expect(x).toBeCloseTo(v[j], 5));
    }
    const again = await client.embeddings.create({ model: 'embed', input: texts[0], encoding_format: 'float' });
    expect(again.data[0].embedding).toEqual(vectors[0]);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
    // Shared words make vectors closer.
    expect(dot(vectors[0], vectors[1])).toBeGreaterThan(dot(vectors[0], vectors[2]));
  });

  it('rejects bad-key with 401 on every API, and unknown paths with 404', async () => {
    llm = await startScriptedLlm();
    const bad = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'bad-key', maxRetries: 0 });
    await expect(bad.embeddings.create({ model: 'e', input: 'x' })).rejects.toMatchObject({ status: 401 });
    const res = await fetch(`${llm.anthropicBaseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'bad-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect((await fetch(`${llm.baseUrl}/models`)).status).toBe(404);
    expect(llm.requests.map((r) => [r.api, r.status])).toEqual([
      ['embeddings', 401],
      ['messages', 401],
      ['other', 404],
    ]);
  });

  it('closes promptly while a slow answer is pending', async () => {
    llm = await startScriptedLlm({ rules: [{ name: 'r', when: () => true, reply: () => 'late' }], faults: { rate: 1, kinds: ['slow'], slowMs: 60_000 } });
    const pending = fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'q' }] }),
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await llm.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(String(await pending)).toMatch(/fetch failed/); // a network error, not a hang
    expect(llm.requests[0]).toMatchObject({ fault: 'slow', status: 0 });
  });
});
