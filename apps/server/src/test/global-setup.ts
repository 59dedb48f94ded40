import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { DEFAULT_DEMO_PASSWORD } from '@clinicrelay/contracts/constants.ts';
import { openPglite, openPostgres, pgliteExtensions } from '../db/client.ts';
import { seedDemo } from '../db/seed/demo.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    // The migrated, seeded PostgreSQL database each test database is copied from (CREATE DATABASE … TEMPLATE).
    postgresTemplate: string;
    testDatabase: 'pglite' | 'postgres';
  }
}

// Migrates and seeds one PGlite for the whole run; each test database is a clone of its dump
// (PGlite's cold start is seconds, a clone well under one).
export async function setup(project: TestProject) {
  if (project.config.provide.testDatabase === 'postgres') return setupPostgresTemplate(project);
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

async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

// The same on PostgreSQL: migrating and seeding once instead of in every test file saves seconds per file.
async function setupPostgresTemplate(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const name = `clinicrelay_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const handle = openPostgres(target.toString(), 2);
  try {
    await handle.migrate();
    await seedDemo(handle.db, { demoPassword: DEFAULT_DEMO_PASSWORD, env: 'test' });
  } finally {
    await handle.close();
  }
  project.provide('postgresTemplate', name);
  return () => adminQuery(url, `drop database if exists ${name} with (force)`);
}
