import { badRequest } from '../errors.ts';

// Tasks for worker-pool.test.ts: jobs that end well, refuse, never end, outgrow the heap, or take a while.

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

// A slow job (a large scan's rendition): it holds its thread for `ms`, then answers its label.
export const slow = async (label: string, ms: number) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return label;
};
