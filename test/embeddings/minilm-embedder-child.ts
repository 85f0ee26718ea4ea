/**
 * Run by minilm-embedder.test.ts in a child Node process (`node --require tsx/cjs`): jest's
 * CommonJS sandbox cannot import node-llama-cpp (ESM-only). Embeds the test's texts twice with
 * the real GGUF and prints one JSON object: the embedder's name, dimension and both passes.
 */
import { disposeMiniLmModels, MiniLmEmbedder } from '../../activities/embeddings/minilm-embedder';

export interface MiniLmChildOutput {
  name: string;
  dimension: number;
  texts: string[];
  first: number[][];
  second: number[][];
}

async function main(): Promise<void> {
  const texts = JSON.parse(process.argv[2]) as string[];
  const embedder = new MiniLmEmbedder();
  const first = await embedder.embed(texts);
  // A second embedder object shares the loaded model; its vectors must be the same.
  const second = await new MiniLmEmbedder().embed(texts);
  const output: MiniLmChildOutput = {
    name: embedder.name,
    dimension: embedder.dimension,
    texts,
    first: first.map((v) => [...v]),
    second: second.map((v) => [...v]),
  };
  process.stdout.write(JSON.stringify(output));
  await disposeMiniLmModels();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
