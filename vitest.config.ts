import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Installs Redis, nginx and Prometheus when they are missing (Debian, as root) or fails saying how.
    globalSetup: ['test/setup/engines.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file starts real upstream processes; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
