import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runNodeScript } from '../../devkit/run-cli';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';

/**
 * bench:accuracy's plumbing with the scripted model (never its figures): the offline knowledge it
 * builds before the configurations run (databases prepared with the model, so notes exist; the
 * few-shot index), ids that say so, the lines it prints, a rerun that asks the model nothing, and
 * the carried answers that let a run on another clone replay them.
 */
describe('npm run bench:accuracy', () => {
  let llm: ScriptedLlm;
  let tmp: string;
  let home: string;
  let carry: string;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      rules: [
        ...scriptedExplorationRules,
        // Every question gets the same runnable SQL: the bench's figures are not the point here.
        { name: 'generator', when: (p) => p.system.includes('SQL writer'), reply: () => JSON.stringify({ sql: 'SELECT 1', reasoning: 'scripted' }) },
      ],
    });
    tmp = mkdtempSync(path.join(tmpdir(), 'bench-accuracy-'));
    home = path.join(tmp, 'home');
    // Never the repository's carry file: a test must not add the scripted model's answers to it.
    carry = path.join(tmp, 'carry', 'answers.jsonl.gz');
  });
  afterAll(async () => {
    await llm.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const bench = (args: string[], where = home) =>
    runNodeScript(
      'bench/accuracy.ts',
      // Nor the repository's knowledge bundle: the ids below are those of a home without learned knowledge.
      ['--limit', '2', '--presets', 'quick', '--home', where, '--carry', carry, '--knowledge', '', ...args],
      {
        DECODEX_LLM_BASE_URL: llm.baseUrl,
        DECODEX_LLM_MODEL: 'scripted',
        DECODEX_LLM_API_KEY: 'k',
      },
      { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 240_000 },
    );

  it('prepares the sample databases with the model and builds the few-shot index first, then runs and resumes', async () => {
    const first = await bench([]);
    expect(first.stderr).not.toMatch(/failed/);
    expect(first.code).toBe(0);
    const prepared = [...first.stderr.matchAll(/^bench:accuracy: prepared (\S+) \((\d+)\/(\d+)\): (\d+) notes$/gm)];
    expect(prepared.length).toBeGreaterThan(0);
    expect(prepared.length).toBe(Number(prepared[0][3]));
    // The scripted triage confirms same-named columns, so the explorator wrote notes through the model.
    expect(llm.requests.some((r) => r.roleGuess === 'triager')).toBe(true);
    expect(Number(/few-shot index of (\d+) examples from spider-train/.exec(first.stderr)?.[1])).toBeGreaterThan(1000);
    expect(first.stderr).toMatch(/^bench:accuracy: quick \(accuracy-spider-dev-quick-[0-9a-f]{10}-fs-spider-train-notes\)$/m);
    expect(first.stdout).toMatch(/^ex_quick: \d\.\d{3}$/m);
    expect(first.stdout).toMatch(/^cached_call_fraction_quick: 0\.000$/m);
    // Every question's record kept its one candidate's verdict and path: each wrong answer had no right candidate.
    const scored = Number(/^questions_quick: (\d+)$/m.exec(first.stdout)?.[1]);
    const wrong = scored - Math.round(scored * Number(/^ex_quick: (\S+)$/m.exec(first.stdout)?.[1]));
    expect(wrong).toBeGreaterThan(0);
    expect(first.stdout).toMatch(new RegExp(`^candidates_recorded_quick: ${scored}$`, 'm'));
    expect(first.stdout).toMatch(new RegExp(`^lost_at_generation_quick: ${wrong}$`, 'm'));

    // Everything is stored in the home: a second run asks the model nothing.
    const asked = llm.requests.length;
    const again = await bench([]);
    expect(again.code).toBe(0);
    expect(llm.requests.length).toBe(asked);
    expect(again.stdout).toMatch(/^ex_quick: /m);

    // The answers are carried out of the home; a new home (another clone) replays them all.
    expect(existsSync(carry)).toBe(true);
    const carried = gunzipSync(readFileSync(carry)).toString('utf8').trim().split('\n');
    expect(carried.length).toBeGreaterThan(0);
    expect(JSON.parse(carried[0])).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{64}$/), value: { text: expect.any(String) } });
    const elsewhere = await bench([], path.join(tmp, 'another-home'));
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).toMatch(new RegExp(`^bench:accuracy: ${carried.length} carried model answers added`, 'm'));
    expect(llm.requests.length).toBe(asked);
    expect(elsewhere.stdout).toMatch(/^cached_call_fraction_quick: 1\.000$/m);

    // Without the offline knowledge, the id says so and it is a run of its own.
    const bare = await bench(['--few-shot', '', '--no-notes']);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toMatch(/^bench:accuracy: quick \(accuracy-spider-dev-quick-[0-9a-f]{10}\)$/m);
    expect(bare.stderr).not.toMatch(/prepared|few-shot index/);
  }, 600_000);

  it('refuses a few-shot source it does not know, naming the ones it does', async () => {
    const run = await bench(['--few-shot', 'spider-dev']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--few-shot takes spider-train, bird-train .* got "spider-dev"/);
  }, 60_000);
});
