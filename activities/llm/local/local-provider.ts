import type { Completion, CompletionRequest, LlmProvider } from '../llm-provider';
import { toLocalChat } from './chat-history';
import { assertPromptFits } from './context-fit';
import { degenerateRepetition } from './degenerate-repetition';
import { classifyLocalError } from './local-errors';
import type { LocalRuntimeOptions } from './local-llm-config';
import { loadLocalModel } from './model-runtime';

/**
 * llama.cpp's classic repeat penalty. At temperature 0 a small model can fall into a loop inside a
 * JSON string ("WHERE id = 38383838...") until the token cap, and the answer is then truncated;
 * a mild penalty on the last 64 tokens breaks such loops and barely touches ordinary SQL.
 */
const REPEAT_PENALTY = { penalty: 1.1, lastTokens: 64 };

export interface LocalProviderOptions extends LocalRuntimeOptions {
  /** Deadline of one generation (not of loading the model or waiting for a free sequence). */
  timeoutMs: number;
}

/**
 * A GGUF model run in this process by node-llama-cpp; `request.model` is its path or URI. The
 * model loads on first use and is shared by the whole process; each call borrows one of its
 * context sequences and starts from an empty context. With a schema, decoding is constrained by
 * the schema's grammar, so even a small model can only write JSON of the right shape. Like the
 * remote providers it never retries: one call, one generation.
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
      return local.sequences.use(async (sequence) => {
        const promptTokens = request.messages.reduce((n, m) => n + sequence.model.tokenize(m.content).length, 0);
        assertPromptFits({ model: local.name, promptTokens, maxTokens: request.maxTokens, contextTokens: sequence.contextSize });
        const meterBefore = sequence.tokenMeter.getState();
        const session = new local.lib.LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
        const deadline = AbortSignal.timeout(options.timeoutMs);
        const loop = new AbortController();
        let generated = '';
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
            onTextChunk: (chunk) => {
              generated += chunk;
              if (!loop.signal.aborted && degenerateRepetition(generated)) loop.abort();
            },
          });
          if (deadline.aborted) throw new Error('the generation was stopped at its deadline');
          // The sequence's meter counts what was evaluated: the whole prompt (the context starts
          // empty) and every generated token, as the remote APIs report them.
          const used = sequence.tokenMeter.diff(meterBefore);
          const cutOff = loop.signal.aborted ? 'repetition' : answer.stopReason === 'maxTokens' ? 'length' : undefined;
          return {
            text: answer.responseText,
            usage: { promptTokens: used.usedInputTokens, completionTokens: used.usedOutputTokens },
            ...(cutOff ? { cutOff } : {}),
          };
        } catch (err) {
          throw classifyLocalError(err, { model: local.name, timeoutMs: options.timeoutMs, timedOut: deadline.aborted });
        } finally {
          session.dispose({ disposeSequence: false });
          await sequence.clearHistory();
        }
      });
    },
  };
}
