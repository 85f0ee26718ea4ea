import { existsSync } from 'node:fs';
import path from 'node:path';
import { EmbeddingError } from '../../activities/embeddings/embedding-error';
import { MINILM_MODEL_FILE, MiniLmEmbedder } from '../../activities/embeddings/minilm-embedder';
import { runNodeScript } from '../../devkit/run-cli';
import type { MiniLmChildOutput } from './minilm-embedder-child';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const norm = (a: number[]) => Math.sqrt(cosine(a, a));

describe('the MiniLM embedder', () => {
  it('says to run `npm run setup` when its GGUF file is missing', () => {
    const attempt = () => new MiniLmEmbedder({ modelFile: path.join(__dirname, 'no-such-model.gguf') });
    expect(attempt).toThrow(EmbeddingError);
    expect(attempt).toThrow(/no-such-model\.gguf does not exist: run `npm run setup`/);
  });

  it('embeds with the real GGUF: meaning, not spelling; 384 unit-length dimensions; the same vectors every time', async () => {
    // Installed by `npm run setup` (part of the README's test command), never downloaded here.
    expect(existsSync(MINILM_MODEL_FILE)).toBe(true);
    const texts = ['nation', 'country', 'horsepower', 'singer: country', 'How many singers are from France?', '', 'word '.repeat(400)];
    const run = await runNodeScript(
      path.join(__dirname, 'minilm-embedder-child.ts'),
      [JSON.stringify(texts)],
      {},
      { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 120_000 },
    );
    if (run.code !== 0) throw new Error(`the embedding run failed (exit ${run.code}):\n${run.stderr}`);
    const out = JSON.parse(run.stdout) as MiniLmChildOutput;
    const [nation, country, horsepower, singerCountry, question, empty, long] = out.first;

    expect(out.dimension).toBe(384);
    for (const v of out.first) expect(v).toHaveLength(384);
    for (const v of [nation, country, horsepower, singerCountry, question, long]) expect(norm(v)).toBeCloseTo(1, 5);
    // Nothing to embed: the zero vector, as the hashed embedder gives (stores reject it).
    expect(norm(empty)).toBe(0);

    // Synonyms the hashed embedder cannot relate (no shared n-gram) are close; unrelated words are not.
    expect(cosine(nation, country)).toBeGreaterThan(0.7);
    expect(cosine(nation, horsepower)).toBeLessThan(0.3);
    expect(cosine(nation, country) - cosine(nation, horsepower)).toBeGreaterThan(0.4);
    expect(cosine(question, singerCountry)).toBeGreaterThan(cosine(question, horsepower));

    // Deterministic: a second pass (another embedder object, same loaded model) gives identical vectors.
    expect(out.second).toEqual(out.first);

    // The file setup writes holds Q8_0 matrices (scripts/minilm-to-gguf.py says why), so the
    // meaning checks above hold for the quantized model: every matrix of more than 2 rows (word and
    // position embeddings, attention, feed-forward) is Q8_0, the rest (norms, biases, the 2-row
    // token-type embedding) f32, and no tensor is left in f16.
    expect(out.fileType).toBe('MOSTLY_Q8_0');
    const matrix = (t: { dimensions: number[] }) => t.dimensions.length === 2 && t.dimensions[1] > 2;
    const types = (pick: (t: MiniLmChildOutput['tensors'][number]) => boolean) => [...new Set(out.tensors.filter(pick).map((t) => t.type))];
    expect(types(matrix)).toEqual(['Q8_0']);
    expect(types((t) => !matrix(t))).toEqual(['F32']);
    // 6 layers × (q, k, v, output, ffn up, ffn down) + word and position embeddings.
    expect(out.tensors.filter(matrix).map((t) => t.name)).toEqual(
      expect.arrayContaining(['token_embd.weight', 'position_embd.weight', 'blk.5.ffn_down.weight']),
    );
    expect(out.tensors.filter(matrix)).toHaveLength(6 * 6 + 2);
  }, 150_000);
});
