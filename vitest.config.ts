import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'machines', include: ['machines/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'views',
          include: ['tests/views/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/views/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'contracts',
          include: ['tests/contracts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
})
