// The lines `npm start` prints while it prepares the first start (scripts/start.mjs): each step that takes
// a while says what it is doing and, when it is over, how long it took, e.g.
// "Building the web app… done in 41.2 s". On a terminal the outcome ends the same line; elsewhere (a
// service manager's journal, a pipe) each line is whole, so a reader never sees half of one.
import { spawnSync } from 'node:child_process';

/** "41.2 s": the same figure as the server's own start lines (src/server/lib/log.ts). */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How a step ended: "done in 41.2 s" or "failed after 3.0 s". */
export function outcome(ms, ok = true) {
  return `${ok ? 'done in' : 'failed after'} ${seconds(ms)}`;
}

/** The line of a step that has ended: "Building the web app… done in 41.2 s". */
export function stepLine(label, ms, ok = true) {
  return `${label}… ${outcome(ms, ok)}`;
}

/**
 * Runs node with `args` as one step, saying so on `out`. What the command writes to stderr (a build's
 * warnings, its error) is kept until the step ends and written after the step's line, so that line stays
 * whole; its stdout (progress of its own) is left out. Returns the command's exit status.
 */
export function runStep(label, args, { cwd, out = process.stdout, now = () => performance.now() } = {}) {
  const terminal = out.isTTY === true;
  out.write(terminal ? `${label}… ` : `${label}…\n`);
  const started = now();
  const r = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const status = r.status ?? 1;
  const took = now() - started;
  out.write(`${terminal ? outcome(took, status === 0) : stepLine(label, took, status === 0)}\n`);
  const said = `${r.stderr ?? ''}${r.error ? `${r.error.message}\n` : ''}`;
  if (said) out.write(said.endsWith('\n') ? said : `${said}\n`);
  return status;
}
