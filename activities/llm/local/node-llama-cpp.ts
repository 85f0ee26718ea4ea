import type { Llama } from 'node-llama-cpp';

/** The node-llama-cpp module as its types describe it. */
export type NodeLlamaCpp = typeof import('node-llama-cpp');

/**
 * node-llama-cpp is ESM-only and decodex is CommonJS: TypeScript would compile `import()` to
 * `require()`, which cannot load ESM on this Node version, so the import is built at run time
 * where the compiler cannot rewrite it. (Jest's CommonJS sandbox refuses such imports; the test
 * that runs the real model does so in a child Node process.)
 */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

let moduleLoad: Promise<NodeLlamaCpp> | undefined;
let llamaLoad: Promise<Llama> | undefined;

export function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  moduleLoad ??= importEsm('node-llama-cpp') as Promise<NodeLlamaCpp>;
  return moduleLoad;
}

/**
 * The process's one llama.cpp binding. Prebuilt binaries only (`@node-llama-cpp/<platform>`
 * packages): building from source would download llama.cpp, which many machines cannot.
 * llama.cpp's own chatter (model metadata warnings) is kept to errors.
 */
export function getSharedLlama(): Promise<Llama> {
  llamaLoad ??= loadNodeLlamaCpp().then(({ getLlama, LlamaLogLevel }) => getLlama({ build: 'never', progressLogs: false, logLevel: LlamaLogLevel.error }));
  llamaLoad.catch(() => (llamaLoad = undefined)); // a failed load may succeed on the next try
  return llamaLoad;
}
