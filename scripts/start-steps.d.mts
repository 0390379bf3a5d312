/** Types of scripts/start-steps.mjs, for the tests. */
export function seconds(ms: number): string;
export function outcome(ms: number, ok?: boolean): string;
export function stepLine(label: string, ms: number, ok?: boolean): string;
export function runStep(
  label: string,
  args: string[],
  options?: { cwd?: string; out?: { write(s: string): unknown; isTTY?: boolean }; now?: () => number },
): number;
