import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestFunction, type TestOptions } from 'vitest';

// The sample documents and schemas in ../shared/fixtures beside the project are read in place, never
// copied in. A clone without them still passes `npm test`: the tests that read them are skipped, the
// global setup (shared-fixtures-setup.ts) says why once, and under CI=true it fails the run instead.

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

/**
 * A fixture's bytes (path relative to ../shared/fixtures). Empty when the fixtures are missing, so a
 * file may read one at load time: only the tests wrapped above use it, and they are skipped then.
 */
export function fixture(relative: string): Uint8Array {
  return hasFixtures ? new Uint8Array(readFileSync(path.join(fixturesDir, relative))) : new Uint8Array();
}

/** A fixture as UTF-8 text; empty when the fixtures are missing (see fixture). */
export function fixtureText(relative: string): string {
  return Buffer.from(fixture(relative)).toString('utf8');
}
