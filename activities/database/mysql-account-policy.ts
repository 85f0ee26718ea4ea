/**
 * What a MySQL or PostgreSQL target database's connection does when its account can write
 * (DECODEX_MYSQL_ACCOUNT, DECODEX_POSTGRES_ACCOUNT): `warn` says so and relies on decodex's own
 * read-only guards, `require` refuses to connect. Apart from the engines' files so that reading
 * the setting loads no driver.
 */
export const READ_ONLY_ACCOUNT_POLICIES = ['warn', 'require'] as const;
export type ReadOnlyAccountPolicy = (typeof READ_ONLY_ACCOUNT_POLICIES)[number];
