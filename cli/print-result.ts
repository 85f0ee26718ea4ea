import type { AnswerQuestionResult } from '../core/answer-question-types';
import type { DagReport } from '../core/dag/dag-report';
import { renderSqlValue } from '../core/sql-value';
import { totalTokens } from '../core/usage';
import { escapeForTerminal } from './terminal-text';

/**
 * A plain-text rendering of a run for the terminal: outcome, SQL, rows, usage, link. Data and
 * model text never reach the terminal raw: cells are escaped whole (a newline would break the
 * table), the rest keeps its line breaks (cli/terminal-text.ts).
 */
export function formatResult(result: AnswerQuestionResult, uiLink: string): string {
  return escapeForTerminal(formatLines(result, uiLink), { keepNewlines: true });
}

function formatLines(result: AnswerQuestionResult, uiLink: string): string {
  const lines: string[] = [];
  lines.push(`outcome: ${result.outcome}${result.error ? ` (${result.error.kind}: ${result.error.message})` : ''}`);
  if (result.stoppedBy && result.outcome !== 'budget_exhausted') lines.push(`budget:  ${result.stoppedBy.message} (the answer is the best found before)`);
  lines.push(`route:   ${result.route}${result.judgement?.override ? ` (judged complex: ${result.judgement.override})` : ''}`);
  lines.push(`preset:  ${result.pipeline.label}`);
  if (result.candidates.length) {
    const chosen = result.selection?.chosen;
    lines.push(
      `candidates (${result.selection ? `chosen by ${result.selection.method}, confidence ${result.selection.confidence.toFixed(2)}` : 'none chosen'}):`,
    );
    for (const [i, c] of result.candidates.entries()) {
      const state = c.execution.ok ? `${c.execution.rowCount} rows` : `error: ${c.execution.error.slice(0, 80)}`;
      lines.push(`  ${i === chosen ? '*' : ' '} ${c.path.padEnd(20)} ${state}${c.corrections.length ? `, ${c.corrections.length} correction(s)` : ''}`);
    }
  }
  if (result.dag) lines.push(...formatDag(result.dag));
  lines.push('', 'SQL:', result.sql ? indent(result.sql) : '  (none)');
  if (result.columns.length) {
    lines.push(
      '',
      `rows (${result.rows.length}${result.truncated ? ', truncated' : ''}${byteLimitNote(result)}):`,
      indent(
        table(
          result.columns.map(cell),
          result.rows.map((r) => r.map((v) => cell(renderSqlValue(v)))),
        ),
      ),
    );
  }
  const u = result.usage;
  lines.push('', `LLM: ${u.llmCalls} call(s), ${totalTokens(u)} tokens (${u.promptTokens} prompt + ${u.completionTokens} completion), ${u.cacheHits} cached`);
  lines.push(`Web UI: ${uiLink}`);
  return lines.join('\n');
}

/** The sub-question DAG as it ran: each node's wave, state and rows; refinements; degradation. */
function formatDag(dag: DagReport): string[] {
  const lines = [
    `sub-question DAG (${dag.final.nodes.length} nodes, ${dag.refinements} refinement(s)${dag.rejectedRefinements ? `, ${dag.rejectedRefinements} rejected` : ''}${dag.degraded ? ', degraded' : ''}):`,
  ];
  const byWave = [...dag.nodes].sort((a, b) => (a.wave ?? 99) - (b.wave ?? 99) || a.id - b.id);
  for (const n of byWave) {
    const rows = n.rowCount === undefined ? '' : `, ${n.rowCount} rows${n.passedAs === 'relation' ? ` (as n${n.id})` : ''}`;
    lines.push(`  [${n.id}] wave ${n.wave ?? '-'} ${n.state}${rows}: ${n.question.slice(0, 100)}${n.error ? ` — ${n.error.slice(0, 80)}` : ''}`);
  }
  return lines;
}

const cell = (text: string) => escapeForTerminal(text);

function byteLimitNote({ byteLimit: b }: AnswerQuestionResult): string {
  if (!b) return '';
  const parts = [
    b.cutCells ? `${b.cutCells} cell(s) cut to ${b.maxCellBytes} bytes` : '',
    b.droppedRows ? `${b.droppedRows} row(s) dropped to stay within ${b.maxResultBytes} bytes` : '',
  ];
  return `; ${parts.filter(Boolean).join(', ')}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => '  ' + l)
    .join('\n');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
  const line = (cells: string[]) => cells.map((c, i) => (c.length > widths[i] ? c.slice(0, widths[i] - 1) + '…' : c.padEnd(widths[i]))).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)].join('\n');
}
