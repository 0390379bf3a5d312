/** The lines `npm start` prints while it builds (scripts/start-steps.mjs): what it does, and how long it took. */
import { describe, expect, it } from 'vitest';
import { runStep, seconds, stepLine } from '../scripts/start-steps.mjs';

function capture(isTTY: boolean) {
  let text = '';
  return {
    isTTY,
    write: (s: string) => (text += s),
    get text() {
      return text;
    },
  };
}

/** A clock that moves by `ms` between its two readings. */
const clock = (ms: number) => {
  let t = 1000;
  return () => (t += ms) - ms;
};

describe('npm start: step lines', () => {
  it('says what was done and how long it took, to a tenth of a second', () => {
    expect(seconds(41_234)).toBe('41.2 s');
    expect(stepLine('Building the web app', 41_234)).toBe('Building the web app… done in 41.2 s');
    expect(stepLine('Building the server', 3_000, false)).toBe('Building the server… failed after 3.0 s');
  });

  it('ends the line on a terminal, and writes whole lines elsewhere', () => {
    const tty = capture(true);
    expect(runStep('Building the web app', ['-e', ''], { out: tty, now: clock(41_234) })).toBe(0);
    expect(tty.text).toBe('Building the web app… done in 41.2 s\n');

    const pipe = capture(false);
    expect(runStep('Building the web app', ['-e', ''], { out: pipe, now: clock(41_234) })).toBe(0);
    expect(pipe.text).toBe('Building the web app…\nBuilding the web app… done in 41.2 s\n');
  });

  it("writes a failed step's error after its line, and returns its exit status", () => {
    const tty = capture(true);
    const status = runStep(
      'Building the server',
      ['-e', 'console.log("progress"); console.error("src/x.ts: syntax error"); process.exit(3)'],
      {
        out: tty,
        now: clock(2_500),
      },
    );
    expect(status).toBe(3);
    expect(tty.text).toBe('Building the server… failed after 2.5 s\nsrc/x.ts: syntax error\n');
  });
});
