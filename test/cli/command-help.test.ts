import { COMMANDS, commandHelp, runDecodex } from '../../cli/run-decodex';
import { runCli } from '../../devkit/run-cli';

/** Runs the command line in this process and keeps what it printed. */
async function capture(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(console, 'log').mockImplementation((line: string) => void (stdout += `${line}\n`));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    return { code: await runDecodex(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('decodex <command> --help and unknown options', () => {
  it.each(COMMANDS.map((c) => c.name))('%s --help and -h print its usage with examples and exit 0', async (name) => {
    for (const flag of ['--help', '-h']) {
      const run = await capture([name, flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: decodex ${name}`);
      expect(run.stdout).toMatch(new RegExp(`Examples:\\n  npx decodex ${name}\\b`));
      expect(run.stderr).toBe('');
    }
  });

  it.each(COMMANDS.map((c) => c.name))('%s with an unknown option exits 2 with its own usage', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const args = name === 'build-knowledge' ? [name, 'few-shot', '--no-such-option'] : [name, '--no-such-option'];
    const run = await capture(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--no-such-option'/);
    expect(run.stderr).toContain(commandHelp(command));
    // Only this command's usage, not the list of every command.
    expect(run.stderr).not.toContain('decodex: durable text-to-SQL');
  });

  it('a help flag after -- is a word of the command (a question), not a request for help', async () => {
    const run = await capture(['ask', '--', '-h']);
    expect(run.code).toBe(2); // no --db: a usage error, so nothing started
    expect(run.stderr).toMatch(/ask needs --db/);
  });

  it('the real command: prepare --help exits 0, prepare --bogus exits 2 with prepare usage', async () => {
    const help = await runCli(['prepare', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: decodex prepare --db/);
    const wrong = await runCli(['prepare', '--bogus'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Unknown option '--bogus'[\s\S]*Usage: decodex prepare --db/);
  });
});
