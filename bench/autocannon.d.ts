// The part of autocannon (no types published for 9.x) the benches use.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      connections?: number;
      duration?: number;
      // Load generated from that many worker threads instead of the caller's event loop.
      workers?: number;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Result {
      errors: number;
      timeouts: number;
      non2xx: number;
      requests: { average: number; total: number };
      // Seconds from start to the last answer counted (a little past the duration asked).
      duration: number;
      latency: { p50: number; p90: number; p99: number; average: number };
    }
    type Instance = EventEmitter;
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
