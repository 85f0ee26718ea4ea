import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
  ChatHistoryItem,
  ChatWrapper,
  GbnfJsonSchema,
  Llama,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
  Token,
  TokenPredictor,
} from 'node-llama-cpp';
import { configError } from '../config-values';
import { LlmError } from '../errors';
import type { JsonSchema } from '../json-schema';
import { grammarSchemaOf } from './json-schema-grammar';
import { isModelUri, type LocalRuntimeOptions } from './local-llm-config';
import { resolveLocalModelFile } from './model-file';
import { getSharedLlama, loadNodeLlamaCpp, type NodeLlamaCpp } from './node-llama-cpp';
import { SpeedMeter } from './generation-deadline';
import { SharedPasses } from './shared-passes';
import { createPool, type Pool } from './sequence-pool';

/** A model loaded in this process, ready to serve up to `sequences` generations at once. */
export interface LocalModel {
  /** The GGUF file, and its name for messages. */
  file: string;
  name: string;
  lib: NodeLlamaCpp;
  model: LlamaModel;
  /** The draft model (`DECODEX_LLM_LOCAL_DRAFT=draft-model`), loaded beside the model. */
  drafter?: LlamaModel;
  /**
   * The context sequences. Each keeps the tokens of its last call, so a call whose prompt starts
   * like the previous one's evaluates only what differs (the pool lends the sequence that shares
   * the longest prefix).
   */
  sequences: Pool<LlamaContextSequence>;
  /** Every sequence of the pool, lent or not: a call may copy the prefix another one holds (prefix-copy.ts). */
  allSequences: readonly LlamaContextSequence[];
  /** The model's chat template, the same object every chat session uses. */
  chatWrapper: ChatWrapper;
  /** This model's speed on this machine, for generation deadlines. */
  speed: SpeedMeter;
  /** Which of its generations decode together, sharing forward passes (batched generation). */
  sharedPasses: SharedPasses;
  /** The decoding grammar of a schema, built once per schema. */
  grammarFor(schema: JsonSchema): Promise<LlamaGrammar>;
  /** The tokens a chat renders to, as the session will evaluate them (the answer's turn opened). */
  chatTokens(history: ChatHistoryItem[]): Token[];
}

// Process-wide, so every provider object, role and activity shares one copy of each model's
// weights; keyed by the runtime options too, since they shape the context.
const loaded = new Map<string, Promise<LocalModel>>();

async function load(reference: string, options: LocalRuntimeOptions): Promise<LocalModel> {
  const file = await resolveLocalModelFile(reference);
  const name = path.basename(file);
  const [lib, llama] = await Promise.all([loadNodeLlamaCpp(), getSharedLlama()]).catch((err: unknown) => {
    throw configError(`node-llama-cpp cannot start on this machine (${(err as Error).message}); use a remote provider (DECODEX_LLM_BASE_URL) instead`);
  });
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: file });
  } catch (err) {
    throw configError(`cannot load the local model ${file}: ${(err as Error).message}. Is it a GGUF file (DECODEX_LLM_LOCAL_MODEL)?`);
  }
  let drafter: LlamaModel | undefined;
  try {
    const context = await model.createContext({ contextSize: options.contextSize, sequences: options.sequences, threads: options.threads });
    drafter = options.draft === 'draft-model' ? await loadDraftModel(llama, options) : undefined;
    const draftContext = await drafter?.createContext({ contextSize: options.contextSize, sequences: options.sequences, threads: options.threads });
    // A predictor per sequence: input lookup keeps the sequence's own prompt; a draft model keeps
    // its own sequence, which evaluates the same prompt (its prefix reused like the model's).
    const predictor = (): TokenPredictor | undefined =>
      options.draft === 'input-lookup'
        ? new lib.InputLookupTokenPredictor()
        : draftContext
          ? new lib.DraftSequenceTokenPredictor(draftContext.getSequence(), DRAFT_MODEL_PREDICTION)
          : undefined;
    const grammars = new Map<string, Promise<LlamaGrammar>>();
    const chatWrapper = lib.resolveChatWrapper(model);
    const allSequences = Array.from({ length: options.sequences }, () => {
      const tokenPredictor = predictor();
      return context.getSequence(tokenPredictor ? { tokenPredictor } : {});
    });
    return {
      file,
      name,
      lib,
      model,
      drafter,
      sequences: createPool(allSequences, options.parallel),
      allSequences,
      chatWrapper,
      speed: new SpeedMeter(),
      sharedPasses: new SharedPasses(),
      chatTokens(history) {
        const { contextText } = chatWrapper.generateContextState({ chatHistory: [...history, { type: 'model', response: [] }] });
        return contextText.tokenize(model.tokenizer);
      },
      grammarFor(schema) {
        const key = JSON.stringify(schema);
        let grammar = grammars.get(key);
        if (!grammar) grammars.set(key, (grammar = llama.createGrammarForJsonSchema<GbnfJsonSchema>(grammarSchemaOf(schema))));
        return grammar;
      },
    };
  } catch (err) {
    await drafter?.dispose();
    await model.dispose();
    if (err instanceof LlmError) throw err;
    throw configError(
      `cannot create a context of ${options.contextSize} tokens x ${options.sequences} sequences for ${name}: ${(err as Error).message}. ` +
        'Lower DECODEX_LLM_LOCAL_CONTEXT_SIZE or DECODEX_LLM_LOCAL_SEQUENCES',
    );
  }
}

/**
 * How the draft model writes ahead: at least 4 tokens before the model checks them (so a pass of
 * the model verifies several at once, rather than whatever the draft had ready), up to 16, and
 * only while each token is at least 0.6 likely to it, so a guess stops where the small model is
 * unsure instead of widening the verifying pass with tokens it would likely refuse.
 */
const DRAFT_MODEL_PREDICTION = { minTokens: 4, maxTokens: 16, minConfidence: 0.6 };

async function loadDraftModel(llama: Llama, options: LocalRuntimeOptions): Promise<LlamaModel> {
  const reference = options.draftModel!;
  if (!isModelUri(reference) && !existsSync(reference))
    throw configError(
      `the draft model file ${path.resolve(reference)} does not exist (DECODEX_LLM_LOCAL_DRAFT_MODEL). ` +
        'Install the default one with `python3 scripts/install-model.py qwen2.5-coder-0.5b .tools/models`, or set DECODEX_LLM_LOCAL_DRAFT=none',
    );
  const file = await resolveLocalModelFile(reference);
  try {
    return await llama.loadModel({ modelPath: file });
  } catch (err) {
    throw configError(`cannot load the draft model ${file}: ${(err as Error).message}. Is it a GGUF file (DECODEX_LLM_LOCAL_DRAFT_MODEL)?`);
  }
}

/** The loaded model for a reference, loading it on first use (concurrent first uses share one load). */
export function loadLocalModel(reference: string, options: LocalRuntimeOptions): Promise<LocalModel> {
  const key = JSON.stringify([reference, options.contextSize, options.threads, options.sequences, options.parallel, options.draft, options.draftModel]);
  let model = loaded.get(key);
  if (!model) {
    loaded.set(key, (model = load(reference, options)));
    // A failed load is forgotten, so the next call (a Temporal retry) tries again.
    model.catch(() => loaded.delete(key));
  }
  return model;
}

/** Frees every loaded model (worker shutdown); the next call loads again. */
export async function disposeLocalModels(): Promise<void> {
  const models = [...loaded.values()];
  loaded.clear();
  for (const model of await Promise.allSettled(models))
    if (model.status === 'fulfilled') {
      await model.value.model.dispose();
      await model.value.drafter?.dispose();
    }
}
