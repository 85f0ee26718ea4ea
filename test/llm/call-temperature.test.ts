import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { askModel } from '../../activities/prompts/ask-model';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import type { CompletionRequest } from '../../activities/llm/llm-provider';
import { createLlmService } from '../../activities/llm/llm-service';

/**
 * A call may carry its own temperature (DecoSearch's decomposer runs at 0.1, appendix B): it
 * reaches the provider in place of the role's configured one, and keys the cache apart.
 */
describe('a call temperature', () => {
  it("replaces the role's temperature for that call only, and is part of the cache key", async () => {
    const store = openSqliteArtifactStore(join(mkdtempSync(join(tmpdir(), 'decodex-temp-')), 'a.sqlite'));
    const seen: number[] = [];
    const llm = createLlmService({
      config: loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DECODEX_LLM_MODEL: 'm', DECODEX_LLM_API_KEY: 'k' }),
      store,
      providerFor: () => ({
        name: 'fake',
        complete: async (request: CompletionRequest) => {
          seen.push(request.temperature);
          return { text: '{"nodes": [{"id": 0, "question": "q"}], "edges": []}', usage: { promptTokens: 1, completionTokens: 1 } };
        },
      }),
    });
    const vars = { dialect: 'SQLite', examples: '', schema: 's', knowledge: '', evidence: '(none)', question: 'q?' };
    await askModel(llm, 'decompose-question', vars, { temperature: 0.1 });
    await askModel(llm, 'decompose-question', vars);
    await askModel(llm, 'decompose-question', vars, { temperature: 0.1 }); // cached
    expect(seen).toEqual([0.1, 0]);
    await store.close();
  });
});
