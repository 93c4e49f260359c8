import { defineConfig } from 'vitest/config';

/**
 * The fast tier for the inner loop (`npm run test:unit`): unit tests and the definition scanner's, in process, with
 * no engines to provision (no Redis, Postgres, nginx, Prometheus or browser). `npm test` stays the whole suite.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/definitions/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
