import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestFunction, type TestOptions } from 'vitest';

// The C-CDA examples in ../shared/fixtures beside the project are read in place, never copied in. A
// clone without them still passes `npm test`: the tests that read them are skipped, the global setup
// (apps/server/src/test/shared-fixtures-setup.ts) says why once, and under CI=true it fails the run.

/** ../shared/fixtures, beside the project. */
export const fixturesDir = path.resolve(import.meta.dirname, '../../../../../shared/fixtures');
export const hasFixtures = existsSync(fixturesDir);

const named = (name: string) => (hasFixtures ? name : `${name} [needs ../shared/fixtures]`);

/** A describe block whose tests read the shared fixtures: skipped, with the reason in its name, without them. */
export function describeWithFixtures(name: string, fn: () => void): void {
  describe.skipIf(!hasFixtures)(named(name), fn);
}

/** A test that reads the shared fixtures: skipped, with the reason in its name, without them. */
export function itWithFixtures(name: string, fn: TestFunction): void;
export function itWithFixtures(name: string, options: TestOptions, fn: TestFunction): void;
export function itWithFixtures(name: string, optionsOrFn: TestOptions | TestFunction, fn?: TestFunction): void {
  if (typeof optionsOrFn === 'function') it.skipIf(!hasFixtures)(named(name), optionsOrFn);
  else it.skipIf(!hasFixtures)(named(name), optionsOrFn, fn);
}

/** A fixture as UTF-8 text (path relative to ../shared/fixtures); empty when the fixtures are missing. */
export function fixtureText(relative: string): string {
  return hasFixtures ? readFileSync(path.join(fixturesDir, relative), 'utf8') : '';
}

/** The files of a fixture folder; none when the fixtures are missing. */
export function fixtureFiles(folder: string): string[] {
  return hasFixtures ? readdirSync(path.join(fixturesDir, folder)) : [];
}
