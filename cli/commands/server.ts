import { startEmbeddedServer } from '../temporal/embedded-server';
import { log, untilSignal, UsageError, type Command } from './command';

export const serverCommand: Command = {
  name: 'server',
  usage: 'server                            run the embedded Temporal dev server (Web UI on :8233)',
  async run(config) {
    if (config.temporalAddress) {
      throw new UsageError(`TEMPORAL_ADDRESS=${config.temporalAddress} is set: decodex uses that server, there is nothing to start`);
    }
    const endpoint = await startEmbeddedServer(config, log);
    log('Press Ctrl-C to stop.');
    await untilSignal();
    await endpoint.stop?.();
    return 0;
  },
};
