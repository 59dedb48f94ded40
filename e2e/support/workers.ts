import { availableParallelism } from 'node:os';

// Journeys run in this many workers, each against its own seeded server (two on the 2-core CI machines); E2E_WORKERS
// overrides it (1 runs every file against one server, one after another, as before).
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || Math.min(2, availableParallelism()));
