/**
 * Run by minilm-embedder.test.ts in a child Node process (`node --require tsx/cjs`): jest's
 * CommonJS sandbox cannot import node-llama-cpp (ESM-only). Embeds the test's texts twice with
 * the real GGUF and prints one JSON object: the embedder's name, dimension and both passes, and
 * what the GGUF's header says of its weights (node-llama-cpp's own reader).
 */
import { disposeMiniLmModels, MINILM_MODEL_FILE, MiniLmEmbedder } from '../../activities/embeddings/minilm-embedder';
import { loadNodeLlamaCpp } from '../../activities/llm/local/node-llama-cpp';

export interface MiniLmChildOutput {
  name: string;
  dimension: number;
  texts: string[];
  first: number[][];
  second: number[][];
  /** The file type named in the header (`general.file_type`), e.g. `MOSTLY_Q8_0`. */
  fileType: string;
  /** Each tensor's name, data type (`Q8_0`, `F32`, ...) and dimensions, innermost first. */
  tensors: { name: string; type: string; dimensions: number[] }[];
}

async function main(): Promise<void> {
  const texts = JSON.parse(process.argv[2]) as string[];
  const embedder = new MiniLmEmbedder();
  const first = await embedder.embed(texts);
  // A second embedder object shares the loaded model; its vectors must be the same.
  const second = await new MiniLmEmbedder().embed(texts);
  const { readGgufFileInfo, GgmlType, GgufFileType } = await loadNodeLlamaCpp();
  const info = await readGgufFileInfo(MINILM_MODEL_FILE);
  const output: MiniLmChildOutput = {
    name: embedder.name,
    dimension: embedder.dimension,
    texts,
    first: first.map((v) => [...v]),
    second: second.map((v) => [...v]),
    fileType: GgufFileType[info.metadata.general.file_type ?? -1] ?? 'unknown',
    tensors: (info.tensorInfo ?? []).map((t) => ({ name: t.name, type: GgmlType[t.ggmlType], dimensions: t.dimensions.map(Number) })),
  };
  process.stdout.write(JSON.stringify(output));
  await disposeMiniLmModels();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
