// Issue 29: calls per client application and minute, counted in this process (like @fastify/rate-limit's local store,
// which the product's other limits use): a fixed one-minute window per client id.
export function clientRateLimiter(perMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return (clientId: string): boolean => {
    const at = now();
    let window = windows.get(clientId);
    if (!window || at - window.start >= 60_000) {
      if (windows.size > 10_000) windows.clear();
      window = { start: at, count: 0 };
      windows.set(clientId, window);
    }
    window.count++;
    return window.count <= perMinute;
  };
}
