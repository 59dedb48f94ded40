import type { DirectoryImportSummary, ImportProgress } from './importer.ts';

// What `npm run directory:import` prints: a progress bar on stderr (redrawn in place on a terminal, a line every few
// seconds otherwise) and the summary at the end.

const count = (n: number) => Math.round(n).toLocaleString('en-US');

export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function progressLine(p: ImportProgress, width = 30): string {
  const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 1;
  const filled = Math.round(fraction * width);
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.rows / seconds : 0;
  const left = fraction > 0 && fraction < 1 ? duration((p.elapsedMs / fraction) * (1 - fraction)) : '–';
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(fraction * 100).toFixed(1).padStart(5)}%  ${count(p.rows)} rows  ${count(rate)} rows/s  ${left} left  ${p.file}`;
}

export function progressBar(stream: NodeJS.WriteStream, lineEveryMs = 5_000) {
  const tty = stream.isTTY;
  let last = 0;
  let drawn = false;
  return {
    onProgress: (p: ImportProgress) => {
      const now = performance.now();
      if (now - last < (tty ? 200 : lineEveryMs)) return;
      last = now;
      if (tty) {
        stream.write(`\r${progressLine(p).slice(0, Math.max(20, (stream.columns || 120) - 1))}\x1b[K`);
        drawn = true;
      } else {
        stream.write(`${progressLine(p)}\n`);
      }
    },
    end: () => {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}

export function summaryLines(s: DirectoryImportSummary): string[] {
  const seconds = s.elapsedMs / 1000;
  const lines = [
    `Imported ${s.files.length} file${s.files.length === 1 ? '' : 's'} (${s.files.map((f) => `${f.file}: ${f.kind}`).join(', ')}): ` +
      `${count(s.rows)} rows in ${duration(s.elapsedMs)}, ${count(seconds > 0 ? s.rows / seconds : s.rows)} rows/s.`,
    `  inserted     ${count(s.inserted).padStart(12)}`,
    `  updated      ${count(s.updated).padStart(12)}`,
    `  unchanged    ${count(s.unchanged).padStart(12)}`,
    `  deactivated  ${count(s.deactivated).padStart(12)}${s.skipped ? `  (${count(s.skipped)} of NPIs not in the directory, skipped)` : ''}`,
    `  rejected     ${count(s.rejected).padStart(12)}`,
  ];
  for (const r of s.rejections) lines.push(`    ${r.file} line ${r.line}: ${r.reason}`);
  if (s.rejected > s.rejections.length) lines.push(`    … and ${count(s.rejected - s.rejections.length)} more`);
  if (s.endpoints) {
    const e = s.endpoints;
    lines.push(
      `  Direct addresses: ${count(e.direct)} in the endpoint file (${count(e.ignored)} other endpoints ignored); ` +
        `${count(e.added)} added, ${count(e.removed)} removed; ${count(e.entriesChanged)} entries' Direct address changed.`,
    );
  }
  return lines;
}
