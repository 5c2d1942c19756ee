import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Server test files that vi.mock a server module: they run isolated (project server-mocked).
const MOCKS_A_MODULE = ['tests/server/chat/citation-checks-failure.test.ts']

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on our two-core machines, with
    // the second core idle while tests wait on sockets, timers and the fakes. Every test file builds
    // its own app, database and fakes on ports of their own, so files run side by side safely.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'machines', include: ['machines/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'views',
          include: ['tests/views/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/views/setup.ts'],
          // The first render of the dashboard in a file loads its on-demand modules (Ark UI among them); on
          // a loaded 2-core machine that alone has taken over 5 s.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: MOCKS_A_MODULE,
          environment: 'node',
          testTimeout: 20_000,
          // beforeAll builds apps; on a loaded machine, or with a database created per app, 10 s is tight.
          hookTimeout: 30_000,
          // A worker imports the server and opens the migrated PGlite template once for all its files
          // instead of once per file (a quarter of the suite's time was imports). Every file builds
          // its own app, database and fakes and closes them; no server module keeps state a test
          // changes. Files that replace a module with vi.mock need their own module graph: below.
          // On PostgreSQL (test:postgres) files stay isolated: shared, two files failed there
          // (job-queue's per-person cap, a Drive ingest's connection), not yet understood.
          isolate: Boolean(process.env.TEST_DATABASE_URL),
        },
      },
      {
        test: {
          name: 'server-mocked',
          include: MOCKS_A_MODULE,
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'pact-consumer',
          include: ['tests/contracts/**/*.pact.test.ts'],
          environment: 'node',
          globalSetup: ['tests/contracts/pact-global-setup.ts'],
          testTimeout: 30_000,
          fileParallelism: false,
        },
      },
      // Verifies the pact the consumer tests wrote, so it runs after them: `npm run test:unit`.
      {
        test: {
          name: 'pact-provider',
          include: ['tests/contracts/**/*.provider.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
    ],
  },
})
