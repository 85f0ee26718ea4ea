import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runNodeScript } from '../../devkit/run-cli';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { writeKnowledgeFile } from '../../bench/knowledge-carry';

/**
 * bench:speed's plumbing with the scripted model (never its figures): the lines it prints, that
 * every model call is a first run (a second configuration asking the same calls as the first is not
 * answered from the cache, nor is a second run of the bench in the same home), and that it loads
 * learned knowledge as bench:accuracy does.
 */
describe('npm run bench:speed', () => {
  let llm: ScriptedLlm;
  let tmp: string;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      // Every question gets the same runnable SQL: the bench's figures are not the point here.
      rules: [{ name: 'generator', when: (p) => p.system.includes('SQL writer'), reply: () => 'SELECT 1;' }],
    });
    tmp = mkdtempSync(path.join(tmpdir(), 'bench-speed-'));
  });
  afterAll(async () => {
    await llm.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Two configurations whose model calls are the same (the setting changes plain code only).
  const bench = (extra: string[] = []) =>
    runNodeScript(
      'bench/speed.ts',
      ['--limit', '1', '--presets', 'quick,quick@correction.spellingFixes=false', '--no-notes', '--few-shot', '', '--home', path.join(tmp, 'home'), ...extra],
      { DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' },
      { nodeArgs: ['--require', 'tsx/cjs'], timeoutMs: 240_000 },
    );

  it('prints what a question costs per configuration, asking the model every call of every configuration and run', async () => {
    const first = await bench();
    expect(first.code).toBe(0);
    const asked = llm.requests.length;
    expect(asked).toBeGreaterThanOrEqual(2);
    for (const key of ['quick', 'quick_correction_spellingFixes_false']) {
      for (const name of ['evaluated_prompt_tokens', 'decode_passes', 'generated_tokens', 'model_calls', 'seconds'])
        expect(first.stdout).toMatch(new RegExp(`^${name}_per_question_${key}: \\d+(\\.\\d)?$`, 'm'));
      expect(first.stdout).toMatch(new RegExp(`^ex_${key}: \\d\\.\\d{3}$`, 'm'));
      expect(first.stdout).toMatch(new RegExp(`^cached_call_fraction_${key}: 0\\.000$`, 'm'));
    }

    // The second run also loads learned knowledge, as bench:accuracy does (`--knowledge`).
    const bundle = path.join(tmp, 'knowledge.json.gz');
    writeKnowledgeFile(bundle, { decompositions: [], rules: [{ id: 'r1', gist: 'g', badPattern: 'a / b', correctPattern: 'a * 1.0 / b', fix: 'cast' }] });
    const again = await bench(['--knowledge', bundle]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`bench:speed: 0 decomposition examples and 1 correction rules loaded into the home (${bundle})`);
    expect(llm.requests.length).toBe(2 * asked);
    expect(again.stdout).toMatch(/^cached_call_fraction_quick: 0\.000$/m);
  }, 600_000);
});
