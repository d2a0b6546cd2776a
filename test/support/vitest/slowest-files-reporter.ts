import type { Reporter, TestModule } from 'vitest/node';

/** How many files the summary names. */
const SHOWN = 10;

/**
 * At the end of a run, the slowest test files (wall time of the file, its import included) and the
 * import time summed over all files, so a slow file or a heavy import shows in every run's output.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < 2) return;
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      return { file: m.relativeModuleId, lane: m.project.name, total: d.duration + d.collectDuration, imported: d.collectDuration };
    });
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = rows
      .sort((a, b) => b.total - a.total)
      .slice(0, SHOWN)
      .map((r) => `  ${seconds(r.total).padStart(8)}  ${r.lane.padEnd(11)} ${r.file}`);
    const imports = rows.reduce((sum, r) => sum + r.imported, 0);
    process.stdout.write(
      `\nSlowest ${lines.length} of ${rows.length} files (import and tests):\n${lines.join('\n')}\n` +
        `Import and collection summed over files: ${seconds(imports)}\n`,
    );
  }
}
