/**
 * What the embedded demo adds to the server: the seeded fleet and the in-process simulated agents.
 * server/index.ts loads this module lazily, in demo mode only, so the production server bundle
 * holds none of it (the build emits it as a chunk of its own; tests/dist checks the bundle).
 */
export { seedDemoDevices } from '../seed/demoDevices';
export { startDemoAgents, type DemoAgents } from './demoAgents';
