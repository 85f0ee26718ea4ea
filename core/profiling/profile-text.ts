import { renderSqlValue, type SqlValue } from '../sql-value';
import type { ColumnProfile } from './column-profile';

/**
 * A column profile as text: what the triage and note prompts show the model, and what the
 * profile index embeds (§3.1.2 "Embed(Profile)"). One fact per line, values quoted as SQL
 * literals so the model sees how to write them.
 */
export function renderColumnProfile(p: ColumnProfile): string {
  const lines = [`Column ${p.table}.${p.column}${p.declaredType ? ` (declared ${p.declaredType})` : ''}`];
  const doc = p.documentation;
  if (doc?.fullName && doc.fullName.toLowerCase() !== p.column.toLowerCase()) lines.push(`Meaning of the name: ${doc.fullName}`);
  if (doc?.description) lines.push(`Description: ${doc.description}`);
  if (doc?.values) lines.push(`Values: ${doc.values}`);
  const keys = [p.primaryKey ? 'primary key' : '', p.references ? `references ${p.references.table}.${p.references.column}` : ''].filter(Boolean);
  if (keys.length) lines.push(`Key: ${keys.join(', ')}`);
  lines.push(
    `Rows: ${p.rowCount}, nulls: ${p.nullCount}, distinct: ${p.distinctCount} (${kindOf(p)})` +
      (p.min !== null ? `, min ${literal(p.min)}, max ${literal(p.max)}` : ''),
  );
  lines.push(`Format: ${p.format.replace(/_/g, ' ')}${p.formatConsistency < 1 ? ` (${Math.round(p.formatConsistency * 100)}% of values)` : ''}`);
  if (p.mostFrequent.length) lines.push(`Most frequent: ${p.mostFrequent.map((v) => `${literal(v.value)} (${v.count})`).join(', ')}`);
  if (p.sample.length) lines.push(`Sample: ${p.sample.map(literal).join(', ')}`);
  return lines.join('\n');
}

const LINE_EXAMPLES = 3;
const LINE_EXAMPLE_CHARS = 40;
const LINE_DOC_CHARS = 100;

/**
 * A column profile in one line, for prompts that show many (the `profile-lines` preliminary
 * view): meaning, keys, format, cardinality, then the range of a number or a few examples of a
 * text (keys too: how a code is written is what a filter needs), each clipped. `renderColumnProfile` says the same in five to eight lines.
 */
export function renderColumnProfileLine(p: ColumnProfile): string {
  const doc = p.documentation;
  const parts: string[] = [];
  if (doc?.fullName && doc.fullName.toLowerCase() !== p.column.toLowerCase()) parts.push(`"${clip(doc.fullName, LINE_DOC_CHARS)}"`);
  if (doc?.description) parts.push(clip(doc.description, LINE_DOC_CHARS));
  if (doc?.values) parts.push(`values: ${clip(doc.values, LINE_DOC_CHARS)}`);
  if (p.primaryKey) parts.push('primary key');
  if (p.references) parts.push(`references ${p.references.table}.${p.references.column}`);
  const consistency = p.formatConsistency < 1 ? ` (${Math.round(p.formatConsistency * 100)}%)` : '';
  const nulls = p.nullCount ? `, ${p.nullCount} null` : '';
  parts.push(`${p.format.replace(/_/g, ' ')}${consistency}, ${kindOf(p)}: ${p.distinctCount} distinct of ${p.rowCount} rows${nulls}`);
  if (!p.textual && p.min !== null) parts.push(`${literal(p.min)} to ${literal(p.max)}`);
  if (p.textual) {
    const values = p.mostFrequent.length ? p.mostFrequent.map((v) => v.value) : p.sample;
    const examples = values.slice(0, LINE_EXAMPLES).map((v) => literal(typeof v === 'string' ? clip(v, LINE_EXAMPLE_CHARS) : v));
    if (examples.length) parts.push(`e.g. ${examples.join(', ')}`);
  }
  return `${p.table}.${p.column}: ${parts.join('; ')}`;
}

function clip(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > chars ? `${flat.slice(0, chars - 1)}…` : flat;
}

/**
 * The part of a profile that says what a column holds, without where it lives: candidate
 * generation (§3.1.3 Step 1) compares these, so two columns of one table do not look alike
 * merely because they share a table name.
 */
export function renderColumnSignature(p: ColumnProfile): string {
  const doc = p.documentation;
  return [
    p.column,
    doc?.fullName,
    doc?.description,
    p.format.replace(/_/g, ' '),
    ...p.mostFrequent.map((v) => renderSqlValue(v.value)),
    ...p.sample.map(renderSqlValue),
  ]
    .filter(Boolean)
    .join(' ');
}

/** How a column's cardinality reads to a person: what §3.1.1 says these counts indicate. */
export function kindOf(p: ColumnProfile): string {
  if (p.nonNullCount === 0) return 'empty';
  if (p.nullCount > p.rowCount / 2) return 'sparse';
  if (p.uniqueness === 1 && p.distinctCount > 1) return 'unique';
  if (p.distinctCount <= 20 || p.distinctCount <= p.nonNullCount / 20) return 'categorical';
  return 'varied';
}

function literal(v: SqlValue): string {
  return typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : renderSqlValue(v);
}
