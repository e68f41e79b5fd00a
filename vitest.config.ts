import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'servers/**/*.test.ts',
      'inspector-ui/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
