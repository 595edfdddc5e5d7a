/** @type {import('jest').Config['transform']} */
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', transform: { react: { runtime: 'automatic' } } } }],
  '^.+\\.sql$': '<rootDir>/tests/helpers/sqlTransform.cjs',
};
const common = {
  transform,
  // @tanstack/* ship ESM only: compiled like the sources (the other packages stay untransformed).
  transformIgnorePatterns: ['/node_modules/(?!@tanstack/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'cjs', 'mjs', 'json', 'sql'],
  testEnvironment: 'node',
};

/** @type {import('jest').Config} */
const config = {
  // A shared 2-core machine: database start-up and browsers can be slow under load.
  testTimeout: 30_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/{shared,server,client,tools,scripts}/**/*.test.ts?(x)',
        // tests/chart runs the real helm (tests/helpers/helm.ts), extracted from a devDependency.
        '<rootDir>/tests/chart/**/*.test.ts?(x)',
        // tests/docs: the paths and citations the documents and comments name exist.
        '<rootDir>/tests/docs/**/*.test.ts?(x)',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts?(x)'],
    },
    {
      // Tests of the build output (`npm run build` first): the bundle, the process, the install.
      ...common,
      displayName: 'dist',
      testMatch: ['<rootDir>/tests/dist/**/*.test.ts?(x)'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts?(x)'],
    },
  ],
};

export default config;
