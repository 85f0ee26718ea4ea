import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { datasetsRoot } from '../../core/datasets/datasets-root';
import { describeWithService } from '../support/describe-with-service';

/**
 * Spider dev and BIRD dev are what decodex is evaluated on: a test that quotes one of their
 * questions has shaped code on the evaluation set. This fails if any file under test/ contains
 * a dev question's whole text (case-insensitive; escaped quotes read as quotes).
 */

const TEST_ROOT = path.resolve(__dirname, '..');
const DEV_SETS = ['spider/dev.json', 'bird/dev.json'];
const root = datasetsRoot();
const missing = DEV_SETS.filter((file) => !existsSync(path.join(root, file)));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

// Without the datasets there is nothing to compare against: the shared skip says why in the
// title, and under CI=true it fails instead (describeWithService).
const reason = missing.length ? `${missing.join(', ')} not found under ${root}` : null;
describeWithService('the evaluation sets stay out of the tests', 'the benchmark datasets', reason, 'set DECODEX_DATASETS', () => {
  test('no file under test/ contains a Spider dev or BIRD dev question', () => {
    expect(missing).toEqual([]);
    const questions = new Set(
      DEV_SETS.flatMap((file) =>
        (JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { question: string }[]).map((q) => q.question.trim().toLowerCase()),
      ),
    );
    const leaks: string[] = [];
    for (const file of filesUnder(TEST_ROOT)) {
      const text = readFileSync(file, 'utf8').toLowerCase().replaceAll("\\'", "'").replaceAll('\\"', '"');
      for (const question of questions) if (question !== '' && text.includes(question)) leaks.push(`${path.relative(TEST_ROOT, file)}: ${question}`);
    }
    expect(leaks).toEqual([]);
  });
});
