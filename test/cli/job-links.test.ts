import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { miningTrainingItems, writeTrainingJsonl } from '../support/mining-training-set';
import { cliStderrUntil } from '../../devkit/run-cli';
import { UNUSED_LLM_ENV } from '../../devkit/test-workers';

const LINK = /http:\/\/localhost:8233\/namespaces\/default\/workflows\/([^/\s]+)\/([^/\s]+)\/history/;

/**
 * The Web UI answers a link without a run id with a 400 page: every long job's command prints the
 * page of the run it started. With --no-worker on queues nobody serves, each job only starts, so
 * the printed link can be checked against the server and the job terminated.
 */
describe('the Web UI links printed by the job commands', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-links-'));
  const dataset = writeTrainingJsonl(home, miningTrainingItems());
  const env = {
    DECODEX_HOME: home,
    TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
    DECODEX_QUEUE_PREFIX: `links${process.pid}.`,
    ...UNUSED_LLM_ENV,
  };
  let connection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await Connection.connect({ address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS! });
    client = new Client({ connection });
  });
  afterAll(async () => connection?.close());

  it.each([
    ['mine-rules', ['mine-rules', '--dataset', dataset, '--sample', '3', '--id', `links-mine-${process.pid}`]],
    ['build-knowledge few-shot', ['build-knowledge', 'few-shot', '--id', `links-few-shot-${process.pid}`]],
    ['build-knowledge decompositions', ['build-knowledge', 'decompositions', '--dataset', dataset, '--sample', '3', '--id', `links-kb-${process.pid}`]],
    ['bench', ['bench', '--dataset', dataset, '--gold-as-prediction', '--id', `links-bench-${process.pid}`]],
  ])('%s links to the run it started', async (_name, args) => {
    const stderr = await cliStderrUntil([...args, '--no-worker'], env, LINK);
    const [, workflowId, runId] = stderr.match(LINK)!;
    const handle = client.workflow.getHandle(decodeURIComponent(workflowId));
    try {
      expect((await handle.describe()).runId).toBe(decodeURIComponent(runId));
    } finally {
      await handle.terminate('test: only the link was checked').catch(() => {});
    }
  });
});
