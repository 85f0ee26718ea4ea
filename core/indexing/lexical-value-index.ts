/**
 * The lexical side of the value index (issue: "keep a lexical index of values for exact and
 * fuzzy literal lookup: questions quote values with different case and spelling"). The vector
 * index finds differently worded values; this finds the same value written differently —
 * "new york" for 'New York', "SMITH" for 'Smith', "colour tv" for 'Colour-TV' — exactly, and
 * near spellings by character-trigram similarity. Numbers are kept as text for exact matching
 * only (a question's "2010" should hit a year column, not "2011").
 */
export interface LexiconColumn {
  table: string;
  column: string;
  /** Text values get fuzzy matching; numeric ones exact matching only. */
  textual: boolean;
  values: string[];
}

/** What `buildValueIndex` stores per database. */
export interface ValueLexicon {
  columns: LexiconColumn[];
}

export interface LexicalHit {
  table: string;
  column: string;
  value: string;
  /** 1 for an exact (normalised) match, else the trigram Dice similarity. */
  score: number;
  exact: boolean;
}

/** Lower-case, accents removed, every run of non-alphanumerics one space. */
export function normalizeValue(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function trigrams(normalized: string): string[] {
  const padded = ` ${normalized} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return [...grams];
}

interface Entry {
  column: number;
  value: string;
  gramCount: number;
}

export class LexicalValueIndex {
  private readonly entries: Entry[] = [];
  private readonly byNormalized = new Map<string, number[]>();
  private readonly byTrigram = new Map<string, number[]>();

  constructor(private readonly lexicon: ValueLexicon) {
    lexicon.columns.forEach((column, c) => {
      for (const value of column.values) {
        const normalized = normalizeValue(value);
        if (!normalized) continue;
        const id = this.entries.length;
        const grams = column.textual ? trigrams(normalized) : [];
        this.entries.push({ column: c, value, gramCount: grams.length });
        push(this.byNormalized, normalized, id);
        for (const g of grams) push(this.byTrigram, g, id);
      }
    });
  }

  get size(): number {
    return this.entries.length;
  }

  /** Values equal to `literal` after normalisation, in every column that holds them. */
  exact(literal: string): LexicalHit[] {
    return (this.byNormalized.get(normalizeValue(literal)) ?? []).map((id) => this.hit(id, 1, true));
  }

  /**
   * Text values whose trigram Dice similarity with `literal` is at least `minScore`, best
   * first; exact matches score 1. Bounded by `limit`.
   */
  fuzzy(literal: string, minScore: number, limit: number): LexicalHit[] {
    const normalized = normalizeValue(literal);
    if (!normalized) return [];
    const grams = trigrams(normalized);
    const shared = new Map<number, number>();
    for (const g of grams) for (const id of this.byTrigram.get(g) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    const hits: LexicalHit[] = [];
    for (const [id, n] of shared) {
      const score = (2 * n) / (grams.length + this.entries[id].gramCount);
      if (score >= minScore) hits.push(this.hit(id, score, normalizeValue(this.entries[id].value) === normalized));
    }
    return hits.sort((a, b) => b.score - a.score || a.value.localeCompare(b.value)).slice(0, limit);
  }

  private hit(id: number, score: number, exact: boolean): LexicalHit {
    const entry = this.entries[id];
    const column = this.lexicon.columns[entry.column];
    return { table: column.table, column: column.column, value: entry.value, score: exact ? 1 : Math.round(score * 1000) / 1000, exact };
  }
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}
