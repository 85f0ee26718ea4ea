import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { isMysqlUrl, parseMysqlUrl } from '../../activities/database/mysql-connection-url';
import { loadLlmConfig } from '../../activities/llm/llm-config';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { ALL_SEARCH_ATTRIBUTES, devServerSearchAttributeArgs } from '../../core/search-attributes';
import { ALL_TASK_QUEUES } from '../../core/task-queues';
import { workerSizingFromEnv } from '../../workers/worker-sizing';

/**
 * No Docker runs here: the compose file is parsed and every setting a worker needs is checked
 * against the services that provide it, as `docker compose config` would resolve it.
 */
interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  command?: string | string[];
  environment?: Record<string, string | number>;
  depends_on?: string[] | Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  ports?: string[];
}

const ROOT = path.resolve(__dirname, '../..');
const compose = load(readFileSync(path.join(ROOT, 'docker/docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const services = compose.services;
const inProfile = (profile: string) => Object.entries(services).filter(([, s]) => !s.profiles || s.profiles.includes(profile));

/** `${NAME:-default}` as compose resolves it with NAME unset; `${NAME:?..}` would stop compose, so it counts as unset here. */
function resolved(value: string | number): string {
  return String(value).replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g, (_, _name: string, fallback?: string) => fallback ?? '');
}
const envOf = (s: Service) => Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, resolved(v)]));
const dependsOn = (s: Service) => (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {}));
const commandText = (s: Service) => (Array.isArray(s.command) ? s.command.join(' ') : (s.command ?? ''));
/** The service a `host:port` or URL names, checked to exist in the same profile and to be a dependency. */
function hostService(value: string): string {
  return new URL(value.includes('://') ? value : `tcp://${value}`).hostname;
}

describe('docker/docker-compose.yml', () => {
  const production = Object.fromEntries(inProfile('production'));
  const workers = Object.entries(production).filter(([, s]) => /\bworker\b/.test(commandText(s)) || (s.build && !s.image));

  it('production profile: Temporal on PostgreSQL from the official images, its Web UI, Qdrant of the client version, MySQL', () => {
    const temporal = production['temporal-server'];
    expect(temporal.image).toMatch(/^temporalio\/auto-setup:1\.\d+\.\d+$/);
    const tEnv = envOf(temporal);
    expect(tEnv.DB).toBe('postgres12');
    expect(production[tEnv.POSTGRES_SEEDS]?.image).toMatch(/^postgres:\d+/);
    expect(tEnv.POSTGRES_PWD).toBe(resolved(production[tEnv.POSTGRES_SEEDS].environment!.POSTGRES_PASSWORD));
    expect(dependsOn(temporal)).toContain(tEnv.POSTGRES_SEEDS);
    expect(production['temporal-ui'].image).toMatch(/^temporalio\/ui:\d/);
    expect(hostService(envOf(production['temporal-ui']).TEMPORAL_ADDRESS)).toBe('temporal-server');

    const client = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@qdrant/js-client-rest/package.json'), 'utf8')).version as string;
    const majorMinor = client.split('.').slice(0, 2).join('.');
    expect(production.qdrant.image).toMatch(new RegExp(`^qdrant/qdrant:v${majorMinor.replace('.', '\\.')}\\.\\d+$`));
    expect(production.mysql.image).toMatch(/^mysql:8/);
    // Values of several MB in one row (DAG results, question sets) need a large packet.
    const packet = commandText(production.mysql).match(/--max-allowed-packet=(\d+)M/);
    expect(Number(packet?.[1])).toBeGreaterThanOrEqual(64);
    expect(production.temporal).toBeUndefined(); // the dev server is not part of production
  });

  it('registers every decodex search attribute on both servers, with its type', () => {
    const job = commandText(production['temporal-search-attributes']);
    const registered = Object.fromEntries(
      job
        .split('search-attribute create')
        .slice(1)
        .flatMap((part) => [...part.matchAll(/--name (\w+)/g)].map((m) => [m[1], part.match(/--type (\w+)/)?.[1]])),
    );
    const byType: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int' };
    expect(registered).toEqual(Object.fromEntries(ALL_SEARCH_ATTRIBUTES.map((key) => [key.name, byType[key.type]])));
    expect(hostService(envOf(production['temporal-search-attributes']).TEMPORAL_ADDRESS)).toBe('temporal-server');
    const dev = commandText(services.temporal).split(/\s+/);
    for (const pair of devServerSearchAttributeArgs().filter((arg) => arg !== '--search-attribute')) expect(dev).toContain(pair);
  });

  it('runs several worker replicas, every task queue served', () => {
    const queues = workers.map(([, s]) => commandText(s).match(/--queue (\w+)/)?.[1] ?? 'all');
    for (const q of ALL_TASK_QUEUES) expect(queues).toContain(q);
    const replicas = workers.reduce((n, [, s]) => n + (s.deploy?.replicas ?? 1), 0);
    expect(replicas).toBeGreaterThanOrEqual(4);
  });

  it.each(['worker-online', 'worker-llm', 'worker-offline'])('%s has every setting a worker needs, pointing at the services that provide them', (name) => {
    const worker = production[name];
    expect(worker).toBeDefined();
    const env = envOf(worker);
    const needs = dependsOn(worker);

    // Temporal: the production server and its namespace, after the search attributes exist.
    expect(hostService(env.TEMPORAL_ADDRESS)).toBe('temporal-server');
    expect(env.TEMPORAL_ADDRESS).toMatch(/:7233$/);
    expect(env.TEMPORAL_NAMESPACE).toBe(envOf(production['temporal-server']).DEFAULT_NAMESPACE);
    expect(needs).toContain('temporal-search-attributes');

    // Vectors in the shared Qdrant.
    expect(hostService(env.QDRANT_URL)).toBe('qdrant');
    expect(needs).toContain('qdrant');

    // Artifacts in the shared MySQL, with the account and password the MySQL service creates.
    expect(isMysqlUrl(env.DECODEX_ARTIFACTS_URL)).toBe(true);
    const url = parseMysqlUrl(env.DECODEX_ARTIFACTS_URL);
    const mysqlEnv = envOf(production[url.host]);
    expect(url.port).toBe(3306);
    expect(url.database).toBe(mysqlEnv.MYSQL_DATABASE);
    expect(url.user).toBe(mysqlEnv.MYSQL_USER);
    expect(url.password || env.DECODEX_ARTIFACTS_PASSWORD).toBe(mysqlEnv.MYSQL_PASSWORD);
    expect(worker.environment!.DECODEX_ARTIFACTS_PASSWORD).toBe(services.mysql.environment!.MYSQL_PASSWORD); // one variable for both
    expect(needs).toContain(url.host);

    // The model, a home of its own, and sizing knobs decodex accepts.
    for (const key of ['DECODEX_LLM_BASE_URL', 'DECODEX_LLM_MODEL', 'DECODEX_LLM_API_KEY', 'DECODEX_HOME']) expect(worker.environment).toHaveProperty(key);
    const withModel = { ...env, DECODEX_LLM_BASE_URL: 'http://llm:8000/v1', DECODEX_LLM_MODEL: 'm' };
    expect(() => resolveRuntimeConfig(withModel, '/app')).not.toThrow();
    const sizing = workerSizingFromEnv(withModel, loadLlmConfig(withModel));
    const knob = Object.keys(env).find((k) => /^DECODEX_(ONLINE|OFFLINE|LLM)_CONCURRENCY$/.test(k));
    const queue = commandText(worker).match(/--queue (\w+)/)![1];
    expect(knob).toBe(`DECODEX_${queue.toUpperCase()}_CONCURRENCY`);
    expect(sizing[`${queue}Concurrency` as 'onlineConcurrency']).toBe(Number(env[knob!]));
    expect(sizing.sqlPool.mysql).toBe(Number(env.DECODEX_SQL_POOL_SIZE));
    // Nothing mounted: a replica keeps nothing another one needs.
    expect((worker as { volumes?: unknown }).volumes).toBeUndefined();
  });
});
