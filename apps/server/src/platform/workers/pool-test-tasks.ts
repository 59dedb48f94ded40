import { badRequest } from '../errors.ts';

// Tasks for worker-pool.test.ts: jobs that end well, refuse, never end, or outgrow the heap.

export const double = (bytes: Uint8Array) => bytes.map((b) => b * 2);

export const refuse = (message: string) => {
  throw badRequest(message);
};

export function spinForever(): never {
  for (;;);
}

export function fillHeap(): number {
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => `entry ${i} of ${kept.length}`));
}
