import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { RESULTS_DIR } from './constants.ts';
import { startServer } from './server.ts';
import { ensureWebBuild } from './web-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** Builds the SPA if needed, starts one seeded server for the whole run, and stops it at the end. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Screenshots of an earlier run would be mistaken for this run's failures.
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  ensureWebBuild();
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  return server.stop;
}
