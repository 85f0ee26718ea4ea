import type { LlamaContextSequence } from 'node-llama-cpp';
import type { Completion, CompletionRequest, LlmProvider } from '../llm-provider';
import { toLocalChat } from './chat-history';
import { assertPromptFits } from './context-fit';
import { degenerateRepetition } from './degenerate-repetition';
import { generationDeadlineMs } from './generation-deadline';
import { classifyLocalError } from './local-errors';
import type { LocalRuntimeOptions } from './local-llm-config';
import { loadLocalModel } from './model-runtime';
import { copyLongestPrefix, sharedPrefix } from './prefix-copy';

/**
 * llama.cpp's classic repeat penalty. At temperature 0 a small model can fall into a loop inside a
 * JSON string ("WHERE id = 38383838...") until the token cap, and the answer is then truncated;
 * a mild penalty on the last 64 tokens breaks such loops and barely touches ordinary SQL.
 */
const REPEAT_PENALTY = { penalty: 1.1, lastTokens: 64 };

export interface LocalProviderOptions extends LocalRuntimeOptions {
  /**
   * The longest one generation may take (not loading the model or waiting for a free sequence);
   * each call's own deadline is shorter when its prompt is short (generation-deadline.ts).
   */
  timeoutMs: number;
}

/** A shared prefix shorter than this does not make a sequence preferred (see `worthReusing`). */
const MIN_PREFERRED_PREFIX_TOKENS = 32;

/**
 * A GGUF model run in this process by node-llama-cpp; `request.model` is its path or URI. The
 * model loads on first use and is shared by the whole process; each call borrows one of its
 * context sequences. With a schema, decoding is constrained by the schema's grammar, so even a
 * small model can only write JSON of the right shape. Like the remote providers it never
 * retries: one call, one generation.
 *
 * Prefix reuse: a sequence keeps the tokens of its last call, and node-llama-cpp evaluates only
 * the tokens after the part a new prompt shares with them. decodex's prompts put what one
 * question's calls share first (rules, schema, notes), so on a CPU, where reading the prompt
 * costs most of a call, later calls of a question are much cheaper. The usage reports the
 * tokens sent (as remote APIs bill them) and, apart, how many of them were reused.
 *
 * The grammar guarantees the shape only if the answer ends. A generation that falls into a loop
 * despite the repeat penalty is stopped as soon as its text repeats (degenerateRepetition), and
 * one that reaches its token cap is reported as such: both come back marked `cutOff`, so the
 * service reports a truncated answer instead of a schema mistake.
 */
export function createLocalProvider(options: LocalProviderOptions): LlmProvider {
  return {
    name: 'local',
    async complete(request: CompletionRequest): Promise<Completion> {
      const local = await loadLocalModel(request.model, options);
      const grammar = request.schema ? await local.grammarFor(request.schema) : undefined;
      const { history, prompt } = toLocalChat(request.messages);
      const tokens = local.chatTokens([...history, { type: 'user', text: prompt }]);
      const shared = (sequence: LlamaContextSequence) => sharedPrefix(sequence.contextTokens, tokens);
      // Every prompt shares the chat template's opening and often a first line ("You are an expert
      // SQLite ..."): a sequence is preferred only for a prefix worth keeping it for, else the pool
      // lends the one unused longest, so each role's last prompt survives for its next call.
      const worthReusing = (sequence: LlamaContextSequence) => {
        const n = shared(sequence);
        return n >= MIN_PREFERRED_PREFIX_TOKENS ? n : 0;
      };
      return local.sequences.use(async (sequence) => {
        assertPromptFits({ model: local.name, promptTokens: tokens.length, maxTokens: request.maxTokens, contextTokens: sequence.contextSize });
        const held = options.copyPrefixes ? await copyLongestPrefix(sequence, local.allSequences, tokens) : shared(sequence);
        // At least the last prompt token is evaluated again: a generation starts from it.
        const reused = Math.min(held, tokens.length - 1);
        const timeoutMs = generationDeadlineMs(
          { promptTokens: tokens.length - reused, maxTokens: request.maxTokens },
          local.speed.current(),
          options.timeoutMs,
        );
        const meterBefore = sequence.tokenMeter.getState();
        const draftsBefore = { ...sequence.tokenPredictions };
        const session = new local.lib.LlamaChatSession({ contextSequence: sequence, chatWrapper: local.chatWrapper, autoDisposeSequence: false });
        const deadline = AbortSignal.timeout(timeoutMs);
        const loop = new AbortController();
        let generated = '';
        const startedAt = performance.now();
        let firstTokenAt: number | undefined;
        let endDecoding: (() => void) | undefined;
        let batched = 0;
        try {
          session.setChatHistory(history);
          const answer = await session.promptWithMeta(prompt, {
            grammar,
            maxTokens: request.maxTokens,
            temperature: request.temperature,
            repeatPenalty: REPEAT_PENALTY,
            signal: AbortSignal.any([deadline, loop.signal]),
            // Stopped for a loop, the text so far is the answer (marked cut off); at the deadline it is an error.
            stopOnAbortSignal: true,
            onToken: (generatedTokens) => {
              endDecoding ??= local.sharedPasses.begin();
              batched += local.sharedPasses.sharedShare(generatedTokens.length);
            },
            onTextChunk: (chunk) => {
              firstTokenAt ??= performance.now();
              generated += chunk;
              if (!loop.signal.aborted && degenerateRepetition(generated)) loop.abort();
            },
          });
          if (deadline.aborted) throw new Error('the generation was stopped at its deadline');
          // The sequence's meter counts what was evaluated: the part of the prompt not reused, and
          // every generated token.
          const used = sequence.tokenMeter.diff(meterBefore);
          const endedAt = performance.now();
          local.speed.record({
            promptTokens: used.usedInputTokens,
            promptMs: (firstTokenAt ?? endedAt) - startedAt,
            generatedTokens: used.usedOutputTokens,
            generationMs: endedAt - (firstTokenAt ?? endedAt),
          });
          const cutOff = loop.signal.aborted ? 'repetition' : answer.stopReason === 'maxTokens' ? 'length' : undefined;
          const { answerTokens, drafted } = answerTokensOf(used.usedOutputTokens, draftsBefore, sequence.tokenPredictions);
          return {
            text: answer.responseText,
            usage: {
              promptTokens: used.usedInputTokens + reused,
              completionTokens: answerTokens,
              reusedPromptTokens: reused,
              ...(drafted > 0 ? { draftedTokens: drafted } : {}),
              ...(Math.round(batched) > 0 ? { batchedTokens: Math.min(Math.round(batched), answerTokens - drafted) } : {}),
            },
            ...(cutOff ? { cutOff } : {}),
          };
        } catch (err) {
          // An interrupted evaluation may leave the sequence's tokens half written: start the next call clean.
          await sequence.clearHistory().catch(() => undefined);
          if (deadline.aborted) local.speed.missedDeadline();
          throw classifyLocalError(err, { model: local.name, timeoutMs, timedOut: deadline.aborted });
        } finally {
          // The generation no longer decodes, however it ended (no await since its last token).
          endDecoding?.();
          session.dispose({ disposeSequence: false });
        }
      }, worthReusing);
    },
  };
}

type PredictionCounts = LlamaContextSequence['tokenPredictions'];

/**
 * The answer's tokens and how many of them came from verified drafts. The sequence's meter counts
 * as output every token evaluated with its logits: one per forward pass plus every drafted token
 * checked in it, refuted or not. So the passes are the meter minus the drafts checked, and the
 * answer is the passes plus the drafts it used (each pass yields one token of its own).
 */
export function answerTokensOf(evaluatedOutput: number, before: PredictionCounts, after: PredictionCounts): { answerTokens: number; drafted: number } {
  const checked = after.validated - before.validated + (after.refuted - before.refuted);
  const drafted = after.used - before.used;
  return { answerTokens: evaluatedOutput - checked + drafted, drafted };
}
