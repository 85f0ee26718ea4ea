import { parseArgs } from 'node:util';
import type { RuntimeConfig } from '../../core/runtime-config';
import { operatorStatus, type OperatorStatus, type RunSummary } from '../operator-status';
import { escapeForTerminal } from '../terminal-text';
import type { Command } from './command';

/** "12 s ago", "3 min ago", "2 h ago" from an ISO time. */
function ago(iso: string | null, now: number): string {
  if (!iso) return 'at an unknown time';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

function runLine(run: RunSummary, now: number): string {
  const when = run.closeTime ? `ended ${ago(run.closeTime, now)}` : `started ${ago(run.startTime, now)}`;
  const why = run.failure ? `: ${run.failure.split('\n')[0].slice(0, 160)}` : '';
  return `  ${run.type.padEnd(28)} ${run.workflowId}  (${run.status === 'RUNNING' ? '' : `${run.status.toLowerCase()}, `}${when})${why}`;
}

export function formatStatus(s: OperatorStatus, now = Date.now()): string {
  const where = `${s.address} (namespace ${s.namespace}${s.queuePrefix ? `, queue prefix ${s.queuePrefix}` : ''})`;
  if (s.unreachable) {
    return [
      `Temporal server: not answering at ${where}`,
      s.embeddedPids.length
        ? `  this home's dev server runs (pid ${s.embeddedPids.join(', ')}) but does not answer: starting, or overloaded`
        : '  start one with `npx decodex server` (any ask or prepare also starts it), or set TEMPORAL_ADDRESS',
    ].join('\n');
  }
  const lines = [`Temporal server: answering at ${where}${s.embeddedPids.length ? `, this home's dev server (pid ${s.embeddedPids.join(', ')})` : ''}`];
  lines.push('Workers polling:');
  for (const q of s.queues) {
    const who = q.pollers.map((p) => `${p.identity} (${ago(p.lastAccess, now)})`).join(', ');
    lines.push(`  ${q.queue.padEnd(24)} ${q.pollers.length ? who : 'none: runs on it wait (`npx decodex worker`)'}`);
  }
  lines.push(`Running: ${s.running.length || 'none'}`, ...s.running.map((r) => runLine(r, now)));
  lines.push(`Last failures: ${s.failures.length ? '' : 'none'}`.trimEnd(), ...s.failures.map((r) => runLine(r, now)));
  if (s.failures.length) lines.push('  (`npx decodex follow <workflowId>` prints a run; unanswered questions are failed runs)');
  return escapeForTerminal(lines.join('\n'), { keepNewlines: true });
}

async function status(config: RuntimeConfig, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
  const report = await operatorStatus(config);
  console.log(values.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return report.unreachable ? 1 : 0;
}

export const statusCommand: Command = {
  name: 'status',
  examples: ['npx decodex status', 'DECODEX_QUEUE_PREFIX=team-a. npx decodex status --json'],
  usage: 'status [--json]                   the Temporal server, the workers polling each queue, running runs, the last failures',
  run: status,
};
