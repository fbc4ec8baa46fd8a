// What test:stress prints from vitest's JSON report, and the busy loop it starts.

/** The parts of vitest's JSON reporter output (Jest-compatible) that test:stress reads. */
export interface VitestJsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    assertionResults: { fullName: string; title: string; status: string; duration?: number | null }[];
  }[];
}

export interface TimedTest {
  file: string;
  name: string;
  ms: number;
}

/** The n slowest tests of a report, slowest first; paths relative to the working directory. */
export function slowestTests(report: VitestJsonReport, n: number, cwd = process.cwd()): TimedTest[] {
  return report.testResults
    .flatMap((file) =>
      file.assertionResults.map((test) => ({
        file: file.name.startsWith(`${cwd}/`) ? file.name.slice(cwd.length + 1) : file.name,
        name: test.fullName || test.title,
        ms: test.duration ?? 0,
      })),
    )
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}

/** Counts, failed tests by name, and the slowest tests, as lines to print. */
export function summarize(report: VitestJsonReport, slowest: TimedTest[]): string[] {
  const failed = report.testResults.flatMap((file) =>
    file.assertionResults.filter((t) => t.status === 'failed').map((t) => `  FAILED ${file.name} › ${t.fullName}`),
  );
  return [
    `  ${report.testResults.length} files, ${report.numTotalTests} tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
    ...failed,
    `  slowest ${slowest.length}:`,
    ...slowest.map((t) => `    ${(t.ms / 1000).toFixed(2).padStart(6)} s  ${t.file} › ${t.name}`),
  ];
}

/**
 * A node -e program that spins one core until it is killed, or until the process that started it is gone (checked
 * between slices of spinning, so a killed test:stress leaves no loop behind).
 */
export function busyLoopSource(parentPid: number): string {
  return `const parent = ${parentPid};
for (;;) {
  for (let i = 0; i < 5e7; i++);
  if (process.ppid !== parent) process.exit(0);
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;
}
