import { Client, Connection } from '@temporalio/client';

/**
 * Everything a workflow run's history holds, as searchable text: every string and every payload's
 * bytes (inputs, results, failures, activity summaries, memo, search attributes), decoded as UTF-8:
 * what the Web UI or `temporal workflow show` could display.
 */
export async function historyText(workflowIds: string[], address = process.env.DECODEX_TEST_TEMPORAL_ADDRESS!): Promise<string> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    const parts: string[] = [];
    for (const id of workflowIds) {
      const history = await client.workflow.getHandle(id).fetchHistory();
      collect(history, parts);
    }
    return parts.join('\n');
  } finally {
    await connection.close();
  }
}

function collect(value: unknown, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') return void out.push(value);
  if (value instanceof Uint8Array) return void out.push(Buffer.from(value).toString('utf8'));
  if (Array.isArray(value)) return value.forEach((v) => collect(v, out));
  if (typeof value === 'object') for (const v of Object.values(value)) collect(v, out);
}
