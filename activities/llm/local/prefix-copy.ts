import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LlamaContextSequence, Token } from 'node-llama-cpp';

/**
 * Fewer shared tokens than this are evaluated rather than copied: a copy writes and reads the
 * other sequence's whole state (about 28 KB a token with the 1.5B model: 28 layers, 2 KV heads of
 * 128, f16). The threshold is an estimate of where that file traffic stops paying, not measured.
 */
export const MIN_COPIED_PREFIX_TOKENS = 128;

/** How many leading tokens two token lists share. */
export function sharedPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Gives `target` the longest prefix of `tokens` that any sequence of the context holds, by copying
 * that sequence's state, when it holds at least MIN_COPIED_PREFIX_TOKENS more than `target` does.
 * Returns how many leading tokens of `tokens` the target then holds.
 *
 * Why: llama.cpp keeps one KV cache per sequence, so calls running side by side over the same
 * schema (DexterSQL's preliminary views, tournament games, a DAG wave's nodes) each read it again,
 * and the pool can lend a call the sequence that holds its prefix only once that sequence is free.
 * node-llama-cpp has no call that copies one sequence's cache into another; saving a sequence's
 * state to a file and loading it into another is its public way. A busy sequence is saved between
 * two of its decoding steps (node-llama-cpp takes the sequence's lock for each step), so the call
 * it serves pauses for the save and goes on unchanged.
 *
 * What the target holds is read back from the loaded state, not assumed: the other sequence may
 * have moved on between the choice and the save. A failed copy leaves the target empty (its state
 * is unknown), and the call evaluates its whole prompt, as it would have without the copy.
 */
export async function copyLongestPrefix(target: LlamaContextSequence, all: readonly LlamaContextSequence[], tokens: readonly Token[]): Promise<number> {
  const own = sharedPrefix(target.contextTokens, tokens);
  let source: LlamaContextSequence | undefined;
  let best = own + MIN_COPIED_PREFIX_TOKENS - 1;
  for (const sequence of all) {
    if (sequence === target) continue;
    const n = sharedPrefix(sequence.contextTokens, tokens);
    if (n > best) [source, best] = [sequence, n];
  }
  if (!source) return own;
  const file = path.join(os.tmpdir(), `decodex-sequence-${process.pid}-${randomUUID()}.bin`);
  try {
    await source.saveStateToFile(file);
    await target.loadStateFromFile(file, { acceptRisk: true });
  } catch {
    await target.clearHistory().catch(() => undefined);
    return 0;
  } finally {
    await rm(file, { force: true });
  }
  return sharedPrefix(target.contextTokens, tokens);
}
