import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As in tsconfig.json: the workspace's tests use the SDK from its source.
  resolve: {
    alias: {
      '@aso-registry/sdk/verify-site': fileURLToPath(new URL('packages/sdk/src/verify-site.ts', import.meta.url)),
      '@aso-registry/sdk/log': fileURLToPath(new URL('packages/sdk/src/log.ts', import.meta.url)),
      '@aso-registry/sdk': fileURLToPath(new URL('packages/sdk/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/file-hygiene.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: true,
    maxWorkers: 2,
    // Test files share their worker's process instead of a new one each (decision 0020): every file closes what it
    // opens and puts back what it changes.
    isolate: false,
    // The AWS SDK warns once per process that its 2027 releases will need Node 22; the tests run on Node 20 on purpose.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
