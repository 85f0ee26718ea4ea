import { createDatabaseActivities } from './database/database-activities';
import type { DatabaseRegistry } from './database/database-registry';
import { createGenerationActivities } from './generation/generation-activities';
import type { LlmService } from './llm/llm-service';

/** What activities need from the outside world; workers build it, tests inject their own. */
export interface ActivityDeps {
  databases: DatabaseRegistry;
  llm: LlmService;
}

/**
 * Activities grouped by the task queue that runs them: database work on `online`, model
 * calls on `llm` (bounded there), long jobs on `offline`.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    online: createDatabaseActivities(deps.databases),
    llm: createGenerationActivities(deps.llm),
    offline: {},
  };
}
