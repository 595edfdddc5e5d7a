import fs from 'node:fs';
import path from 'node:path';

/**
 * The production server bundle (`npm run build` first) holds the product only: the tools (the
 * simulator, the fleet generator, the demo's agents) are a chunk of their own that server/index.ts
 * loads in demo mode alone. esbuild marks each module it bundles with a `// <path>` line.
 */
const DIST = path.resolve(__dirname, '../../dist');
const modulesOf = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:server|tools|shared|client)\/\S+)$/gm)].map((m) => m[1]!);

describe('the server bundle', () => {
  const server = modulesOf(path.join(DIST, 'server.js'));
  const chunks = fs.readdirSync(path.join(DIST, 'server-chunks')).map((f) => path.join(DIST, 'server-chunks', f));

  test('dist/server.js holds the server and none of tools/', () => {
    expect(server).toContain('server/index.ts');
    expect(server).toContain('server/agent/agentService.ts');
    expect(server.filter((m) => m.startsWith('tools/'))).toEqual([]);
  });

  test('the demo is one chunk of its own with the simulated agents and the demo fleet, loaded by nothing else', () => {
    const demo = chunks.filter((c) => modulesOf(c).some((m) => m.startsWith('tools/')));
    expect(demo).toHaveLength(1);
    expect(modulesOf(demo[0]!)).toEqual(
      expect.arrayContaining(['tools/demo/demoAgents.ts', 'tools/seed/demoDevices.ts', 'tools/simulator/simulatedAgent.ts']),
    );
    const name = path.basename(demo[0]!);
    const importers = [path.join(DIST, 'server.js'), ...chunks].filter((f) => f !== demo[0] && fs.readFileSync(f, 'utf8').includes(name));
    expect(importers.map((f) => path.relative(DIST, f))).toEqual(['server.js']);
  });
});
