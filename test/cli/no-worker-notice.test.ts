import { noticeMissingWorkers } from '../../cli/commands/no-worker-notice';
import type { DecodexClient } from '../../cli/client';

/** A client whose server answers DescribeTaskQueue from `pollers(call)`: the pollers it reports on the call-th round of checks. */
function fakeClient(pollers: (round: number) => string[]): DecodexClient {
  let calls = 0;
  const describeTaskQueue = async () => ({ pollers: pollers(Math.floor(calls++ / 3)).map((identity) => ({ identity })) });
  return { client: { options: { namespace: 'default' }, workflowService: { describeTaskQueue } } } as unknown as DecodexClient;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the --no-worker notice', () => {
  it('names the queues no worker polls in two checks', async () => {
    const lines: string[] = [];
    noticeMissingWorkers(
      fakeClient(() => []),
      ['online', 'offline', 'llm'],
      'p.',
      (l) => lines.push(l),
      20,
    );
    await settle(150);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/No worker polls the task queues "p\.online", "p\.offline", "p\.llm", so this run waits/);
  });

  it('says nothing when the workers poll again by the second check (a server that just restarted forgot them)', async () => {
    const lines: string[] = [];
    noticeMissingWorkers(
      fakeClient((round) => (round === 0 ? [] : ['worker@host'])),
      ['online', 'offline', 'llm'],
      'p.',
      (l) => lines.push(l),
      20,
    );
    await settle(150);
    expect(lines).toEqual([]);
  });
});
