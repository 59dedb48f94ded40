import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { DEFAULT_DEMO_PASSWORD } from '@clinicrelay/contracts/constants.ts';
import { openPglite, pgliteExtensions } from '../db/client.ts';
import { seedDemo } from '../db/seed/demo.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    testDatabase: 'pglite' | 'postgres';
  }
}

// Migrates and seeds one PGlite for the whole run; each test database is a clone of its dump
// (PGlite's cold start is seconds, a clone well under one).
export async function setup(project: TestProject) {
  if (project.config.provide.testDatabase === 'postgres') return;
  const client = await PGlite.create({ extensions: pgliteExtensions });
  const handle = openPglite(client);
  await handle.migrate();
  await seedDemo(handle.db, { demoPassword: DEFAULT_DEMO_PASSWORD, env: 'test' });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = path.resolve(import.meta.dirname, '../../../../node_modules/.cache/clinicrelay');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}
