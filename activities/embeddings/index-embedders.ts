import type { ProfileTextStyle } from '../../core/indexing/profile-text-style';
import type { Embedder } from './embedder';

/**
 * The embedder of each index. They differ on purpose: the profile index is searched with a
 * question's words, so it wants an embedder that knows meaning (a neural one finds `Country` for
 * "nation"); the value index is searched with the literals a question quotes, so it wants
 * spelling ("alameda cnty" → "Alameda County") and speed (a Spider build embeds ~184k values,
 * about 1,000 times more texts than columns). Each name is part of the index version
 * (activities/preparation/preparation-versions), so changing either one re-prepares.
 */
export interface IndexEmbedders {
  /** Column profiles, and the question that searches them. */
  profiles: Embedder;
  /** How columns and questions are written for `profiles`. */
  profileText: ProfileTextStyle;
  /**
   * Distinct cell values, and the question's literals that search them; also the column
   * signatures of exploration (mostly values and formats, compared at a threshold measured
   * with the lexical embedder).
   */
  values: Embedder;
  /**
   * Whole questions against past ones (the decomposition knowledge base, DecoSearch §3.5): by
   * meaning, as the paper's all-MiniLM-L6-v2 does. Not part of a preparation's version.
   */
  questions: Embedder;
}

/** One embedder for every index, reading the profile index's stemmed terms. */
export function sameEmbedder(embedder: Embedder): IndexEmbedders {
  return { profiles: embedder, profileText: 'terms', values: embedder, questions: embedder };
}

/**
 * Loads the indices' models at worker start. node-llama-cpp, loading its native binding the
 * first time in a process, first tries it in a child process of about 75 MB (so an incompatible
 * binary cannot crash the worker): at start that child runs alone, in the middle of a job it ran
 * beside the work.
 */
export async function loadEmbedders(embedders: IndexEmbedders): Promise<void> {
  await embedders.profiles.load?.();
  await embedders.values.load?.();
  await embedders.questions.load?.();
}

/** What identifies the vector spaces of a preparation. */
export function embedderNames(embedders: IndexEmbedders): { profiles: string; values: string } {
  return { profiles: `${embedders.profiles.name}/${embedders.profileText}`, values: embedders.values.name };
}
