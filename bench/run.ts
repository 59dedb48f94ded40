// `npm run bench`: load and throughput benchmarks with their reference baselines (none written yet).
console.log('No benchmarks yet');
