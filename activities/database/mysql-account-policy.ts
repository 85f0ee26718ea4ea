/**
 * What a MySQL target database's connection does when its account can write (DECODEX_MYSQL_ACCOUNT):
 * `warn` says so and relies on decodex's own read-only guards, `require` refuses to connect. Apart
 * from mysql-database.ts so that reading the setting does not load the MySQL driver.
 */
export const READ_ONLY_ACCOUNT_POLICIES = ['warn', 'require'] as const;
export type ReadOnlyAccountPolicy = (typeof READ_ONLY_ACCOUNT_POLICIES)[number];
