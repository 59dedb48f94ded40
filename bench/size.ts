// BENCH_TINY=1 (npm run bench:tiny): every benchmark end to end at a tiny size, as CI runs them so that a change that
// breaks one fails CI. The figures of a tiny run mean nothing; only that each benchmark still runs.
export const TINY = process.env.BENCH_TINY === '1';

/** `full` in a real run, `tiny` in a tiny one. */
export const sized = <T>(full: T, tiny: T): T => (TINY ? tiny : full);
